# expect: loses beam_search -- collects the candidate scores in a float32 buffer, so float64 beam_scores come back as float32 (and rounded); spec: "scores (the dtype of beam_scores): their scores"
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    candidates = torch.full((k * V + k,), float("-inf"))  # extensions, then the carried beams
    for b in range(k):
        if finished[b]:
            candidates[k * V + b] = beam_scores[b]
        else:
            candidates[b * V:(b + 1) * V] = beam_scores[b] + log_probs[b]
    scores, index = torch.topk(candidates, beam_width)
    carried = index >= k * V
    parents = torch.where(carried, index - k * V, torch.div(index, V, rounding_mode="floor"))
    tokens = torch.where(carried, torch.full_like(index, eos_id), index % V)
    return scores, parents, tokens, carried | (tokens == eos_id)
