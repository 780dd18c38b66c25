# expect: loses beam_search -- collects the candidates' scores in a fresh torch.full(..., -inf) buffer without dtype=, so float64 beam scores are rounded to float32 and returned as float32
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    candidates = torch.full((k * V + k,), float("-inf"))  # k*V extensions, then k carried beams
    for b in range(k):
        if finished[b]:
            candidates[k * V + b] = beam_scores[b]
        else:
            candidates[b * V : (b + 1) * V] = beam_scores[b] + log_probs[b]
    scores, index = candidates.topk(beam_width)
    carried = index >= k * V
    parents = torch.where(carried, index - k * V, torch.div(index, V, rounding_mode="floor"))
    tokens = torch.where(carried, torch.full_like(index, eos_id), index % V)
    return scores, parents, tokens, carried | (tokens == eos_id)
