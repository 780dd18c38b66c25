# expect: loses beam_search -- gathers the candidates' scores in a float32 buffer, so float64 beam_scores come back as float32 (and rounded); spec: "scores (the dtype of beam_scores): their scores"
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    candidates = torch.full((k * V + k,), float("-inf"))  # every extension, then every carried beam
    extended = (beam_scores[:, None] + log_probs).masked_fill(finished[:, None], float("-inf"))
    candidates[: k * V] = extended.reshape(-1)
    candidates[k * V :] = beam_scores.masked_fill(~finished, float("-inf"))
    scores, index = candidates.topk(beam_width)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, eos_id, index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
