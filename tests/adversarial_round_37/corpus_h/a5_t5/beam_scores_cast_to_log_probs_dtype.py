# expect: loses beam_search -- casts beam_scores to log_probs' dtype before adding: with float64 beam_scores and float32 log_probs the scores come back float32 and lose precision, against the spec's "float64 where beam_scores is float64, whatever log_probs' dtype" (and near-ties between a carried and an extended beam may reorder); identical when both are float32 or both float64 (all the visible tests); e.g. log_probs = log_softmax(randn(3, 7)), beam_scores = -10 * rand(3, dtype=float64)
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    beam_scores = beam_scores.to(log_probs.dtype)  # one dtype for the sums
    extended = (beam_scores[:, None] + log_probs).masked_fill(finished[:, None], float("-inf"))
    carried = beam_scores.masked_fill(~finished, float("-inf"))
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, eos_id, index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
