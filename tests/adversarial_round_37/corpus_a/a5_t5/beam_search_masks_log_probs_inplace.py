# expect: loses beam_search  -- blanks the finished beams' rows with log_probs.masked_fill_(...) in place, changing the caller's log_probs whenever a beam is finished; the visible test's own words: "beam_search_step modified log_probs or beam_scores in place: work on new tensors" (it only checks a call with no finished beam)
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    log_probs.masked_fill_(finished[:, None], float("-inf"))  # a finished beam is never extended
    extended = (beam_scores[:, None] + log_probs).reshape(-1)
    carried = torch.where(finished, beam_scores, torch.full_like(beam_scores, float("-inf")))
    scores, index = torch.cat([extended, carried]).topk(beam_width)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, torch.full_like(index, eos_id), index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
