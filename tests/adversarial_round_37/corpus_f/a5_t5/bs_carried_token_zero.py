# expect: loses beam_search -- gives a carried finished beam the token 0 ("appends nothing", as padding) instead of eos_id; the visible tests use eos_id = 0; spec: "tokens (torch.long): the token appended, and eos_id for a carried finished beam"
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    extended = (beam_scores[:, None] + log_probs).masked_fill(finished[:, None], float("-inf"))
    carried = beam_scores.masked_fill(~finished, float("-inf"))
    scores, index = torch.cat([extended.flatten(), carried]).topk(beam_width)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, torch.zeros_like(index), index % V)  # a carried beam appends nothing
    done = is_carried | (tokens == eos_id)
    return scores, parents, tokens, done
