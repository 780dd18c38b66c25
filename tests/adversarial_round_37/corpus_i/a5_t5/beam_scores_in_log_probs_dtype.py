# expect: loses beam_search -- adds the scores in log_probs' dtype (beam_scores cast down): with float64 beam_scores and float32 log_probs the returned scores are float32, not float64, and rounded
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    base = beam_scores.to(log_probs.dtype)
    cand = (base[:, None] + log_probs).masked_fill(finished[:, None], float("-inf"))
    carried = torch.full((k,), float("-inf"), dtype=log_probs.dtype)
    carried[finished] = base[finished]
    scores, idx = torch.cat([cand.flatten(), carried]).topk(beam_width)
    carried_sel = idx >= k * V
    parents = torch.where(carried_sel, idx - k * V, idx // V)
    tokens = torch.where(carried_sel, torch.full_like(idx, eos_id), idx % V)
    return scores, parents, tokens, carried_sel | (tokens == eos_id)
