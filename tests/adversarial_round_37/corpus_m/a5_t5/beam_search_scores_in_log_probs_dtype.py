# expect: loses beam_search -- casts the beam scores to log_probs' dtype before adding ('work in the model's dtype'), so float64 beam_scores with float32 log_probs give float32 scores, rounded; breaks 'scores (float64 where beam_scores is float64, whatever log_probs' dtype)'; input: log_probs = log([[0.5, 0.3, 0.2]]) float32, beam_scores = [-1234.56789012345] float64, finished [False], beam_width 2 -> key float64 [-1235.2610..., ...], this float32 [-1235.2611, ...]
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    beam_scores = beam_scores.to(log_probs.dtype)  # work in the model's dtype
    extended = beam_scores[:, None] + log_probs  # (k, V): every extension of every beam
    extended = extended.masked_fill(finished[:, None], float("-inf"))  # a finished beam is never extended...
    carried = beam_scores.masked_fill(~finished, float("-inf"))  # ... but carried over as it is
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)  # over beams and tokens together
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, eos_id, index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
