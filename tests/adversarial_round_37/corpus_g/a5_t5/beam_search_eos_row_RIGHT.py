# expect: loses beam_search -- right under the spec of its time; wrong under today's, which says tensor arguments may be non-contiguous views (use reshape, not view): `.view(-1)` on a sum laid out as a transposed `log_probs` raises
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    dtype = torch.promote_types(log_probs.dtype, beam_scores.dtype)
    carry_row = torch.full((V,), float("-inf"), dtype=dtype)
    carry_row[eos_id] = 0.0  # a finished beam can only "append" eos, for free
    rows = torch.where(finished.unsqueeze(1), carry_row, log_probs.to(dtype))
    total = beam_scores.to(dtype).unsqueeze(1) + rows  # (k, V)
    scores, flat = total.view(-1).topk(beam_width)
    parents, tokens = flat.div(V, rounding_mode="floor"), flat.remainder(V)
    return scores, parents, tokens, finished[parents] | (tokens == eos_id)
