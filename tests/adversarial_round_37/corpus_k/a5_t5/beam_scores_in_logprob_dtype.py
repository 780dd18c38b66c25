# expect: loses beam_search -- casts beam_scores to log_probs' dtype before adding, so float64 beam_scores with float32 log_probs give float32 scores, against "scores (float64 where beam_scores is float64, whatever log_probs' dtype)" (precision lost too)
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    beam_scores = beam_scores.to(log_probs.dtype)  # one dtype for the arithmetic
    extended = (beam_scores[:, None] + log_probs).masked_fill(finished[:, None], float("-inf"))
    carried = beam_scores.masked_fill(~finished, float("-inf"))
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, eos_id, index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
