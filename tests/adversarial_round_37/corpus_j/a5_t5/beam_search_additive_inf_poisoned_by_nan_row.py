# expect: loses beam_search -- finished beams are blocked by adding -inf to their row, which a NaN in that row (the spec: a finished beam's log_probs row means nothing) turns back into NaN, and topk ranks NaN first: log_probs row 0 = NaN, finished=[True, False] returns a NaN score
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    never = torch.where(finished, float("-inf"), 0.0)  # (k,): -inf for a finished beam
    extended = beam_scores[:, None] + log_probs + never[:, None]  # a finished beam is never extended
    carried = beam_scores + torch.where(finished, 0.0, float("-inf"))  # only finished beams are carried
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, torch.full_like(index, eos_id), index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
