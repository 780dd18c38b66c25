# expect: loses beam_search -- a carried finished beam's token is read as index % V like an extension's, which is its beam index, not eos_id (right only when eos_id equals that index), and its finished flag then depends on that token; spec: "`tokens` (`torch.long`): the token appended, and `eos_id` for a carried finished beam"
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    extended = (beam_scores[:, None] + log_probs).masked_fill(finished[:, None], float("-inf"))
    carried = beam_scores.masked_fill(~finished, float("-inf"))
    scores, index = torch.cat([extended.flatten(), carried]).topk(beam_width)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = index % V
    return scores, parents, tokens, tokens == eos_id
