# expect: full marks -- style: Hugging Face's trick, a finished beam's log-probabilities replaced (torch.where) by a row that is 0 at eos_id and -inf elsewhere, so that its only candidate is itself with eos; one top-k over the (k, V) table in the promoted dtype
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    dtype = torch.promote_types(log_probs.dtype, beam_scores.dtype)
    eos_only = torch.full((V,), float("-inf"), dtype=dtype)
    eos_only[eos_id] = 0.0  # a finished beam's one continuation: eos, at no cost
    step = torch.where(finished[:, None], eos_only, log_probs.to(dtype))  # (k, V); its own row is ignored
    scores, index = (beam_scores.to(dtype)[:, None] + step).reshape(-1).topk(beam_width)
    parents = torch.div(index, V, rounding_mode="floor")
    tokens = index % V
    return scores, parents, tokens, tokens == eos_id
