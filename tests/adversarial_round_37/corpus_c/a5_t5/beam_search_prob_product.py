# expect: loses beam_search -- scores in probability space (exp, multiply, log), which underflows to -inf for long or unlikely beams and loses precision; spec: "scoring each by the sum of its tokens' log-probabilities ... with score beam_scores[b] + log_probs[b, t]"
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    probs = beam_scores.exp()[:, None] * log_probs.exp()  # P(beam) * P(token | beam)
    probs = probs.masked_fill(finished[:, None], 0.0)
    carried = beam_scores.exp().masked_fill(~finished, 0.0)
    best, index = torch.cat([probs.reshape(-1), carried]).topk(beam_width)
    scores = best.log().to(beam_scores.dtype)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, eos_id, index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
