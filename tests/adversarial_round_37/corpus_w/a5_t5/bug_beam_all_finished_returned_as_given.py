# expect: loses beam_search -- "Keep the beam_width candidates with the highest scores ... in descending order of score": when every beam is finished this step returns the first beam_width beams in the order given ("nothing changes"), which is right only if the caller's beams are already sorted best first and beam_width <= k picks the best; with beam_scores [-3, -1] both finished and beam_width 1 it keeps beam 0 (-3) instead of beam 1 (-1); every step with an unfinished beam is right
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    if bool(finished.all()):  # every beam has ended: carry them over as they are
        parents = torch.arange(beam_width)
        return beam_scores[:beam_width].clone(), parents, torch.full((beam_width,), eos_id, dtype=torch.long), torch.ones(beam_width, dtype=torch.bool)
    extended = (beam_scores[:, None] + log_probs).masked_fill(finished[:, None], float("-inf"))
    carried = beam_scores.masked_fill(~finished, float("-inf"))
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, eos_id, index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
