# expect: loses beam_search -- writes token 0 (as if a finished beam appended padding) for a carried finished beam instead of eos_id; the visible tests use eos_id = 0, where the two coincide, and T5's own </s> is 1. Breaks "tokens (torch.long): the token appended, and eos_id for a carried finished beam"; input: log_probs = log([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8]]), beam_scores = log([0.6, 0.4]), finished = [True, False], beam_width 2, eos_id = 1 -> key tokens [1, 2], this answer [0, 2] (scores, parents and finished equal)
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    extended = beam_scores[:, None] + log_probs
    extended = extended.masked_fill(finished[:, None], float("-inf"))
    carried = beam_scores.masked_fill(~finished, float("-inf"))
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, 0, index % V)  # a finished beam only pads
    return scores, parents, tokens, is_carried | (tokens == eos_id)
