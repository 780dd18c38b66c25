# expect: loses beam_search -- carries finished beams over but also extends them by every token (their log_probs rows are used); spec: "every finished beam carried over unchanged ... (a finished beam is never extended; its log_probs row means nothing)"
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    extended = (beam_scores[:, None] + log_probs).reshape(-1)  # (k * V,)
    carried = torch.where(finished, beam_scores, torch.full_like(beam_scores, float("-inf")))
    scores, index = torch.cat([extended, carried]).topk(beam_width)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, torch.full_like(index, eos_id), index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
