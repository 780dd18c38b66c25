# expect: loses beam_search — casts beam_scores to log_probs' dtype before adding ('keep one dtype'), so float64 beam_scores with float32 log_probs give float32 scores, where the spec says 'scores (float64 where beam_scores is float64, whatever log_probs' dtype)', and the sums lose float64's precision; input: log_probs = log_softmax(randn(3, 7)) float32, beam_scores = randn(3) float64 - 1000, finished all False, beam_width 4 -> file scores dtype float32, off by ~4e-5 from the key's float64 scores
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    base = beam_scores.to(log_probs.dtype)
    extended = torch.where(finished[:, None], torch.full_like(log_probs, float("-inf")), base[:, None] + log_probs)
    carried = torch.where(finished, base, torch.full_like(base, float("-inf")))
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, torch.full_like(index, eos_id), index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
