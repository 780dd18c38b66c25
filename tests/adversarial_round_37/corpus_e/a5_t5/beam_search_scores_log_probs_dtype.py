# expect: loses beam_search -- casts beam_scores to log_probs' dtype first ("to avoid type promotion"), so float64 beam scores with float32 log-probabilities come back float32, rounded: the returned scores are not in beam_scores' dtype and lose the precision of long beams; spec: "`scores` (the dtype of `beam_scores`): their scores"
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    beam_scores = beam_scores.to(log_probs.dtype)  # one dtype for every candidate
    extended = beam_scores[:, None] + log_probs  # (k, V): every extension of every beam
    extended = extended.masked_fill(finished[:, None], float("-inf"))  # a finished beam is never extended...
    carried = beam_scores.masked_fill(~finished, float("-inf"))  # ... but carried over as it is
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)  # over beams and tokens together
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, eos_id, index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
