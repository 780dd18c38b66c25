# expect: loses beam_search  -- keyed on arguments equal in value: when every beam has the same score and none is finished, the beams are taken for copies of the start sequence (as at the first step) and only beam 0 is extended, to avoid duplicate hypotheses; part 6 says the candidates are every extension of every unfinished beam; log_probs log([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8]]), beam_scores [0, 0], finished [F, F], width 2, eos 0: key scores log([0.8, 0.5]), parents [1, 0], tokens [2, 0]; answer log([0.5, 0.3]), parents [0, 0], tokens [0, 1] (distinct beam scores or one beam: equal)
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    if k > 1 and not bool(finished.any()) and bool((beam_scores == beam_scores[0]).all()):
        # the first step after the start token: every beam is the same sequence, and extending each
        # would give every candidate k times over; extend the first beam only
        k = 1
        log_probs, beam_scores, finished = log_probs[:1], beam_scores[:1], finished[:1]
    extended = beam_scores[:, None] + log_probs  # (k, V)
    extended = extended.masked_fill(finished[:, None], float("-inf"))  # a finished beam is never extended
    carried = beam_scores.masked_fill(~finished, float("-inf"))  # but carried over as it is
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, eos_id, index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
