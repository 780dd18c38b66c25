# expect: full marks -- Hugging Face's trick: a finished beam's row of log-probabilities is replaced (in a new tensor, never in place) by -inf everywhere and 0 at eos_id, so its only candidate is "extend by eos_id with score beam_scores[b] + 0", which is exactly the carried beam (same score, parent b, token eos_id, finished); its original row, whatever it holds, is never read; one topk over k * V candidates, scores in the dtype of beam_scores + log_probs
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    forced = torch.full((V,), float("-inf"), dtype=log_probs.dtype)
    forced[eos_id] = 0.0
    rows = torch.where(finished[:, None], forced[None, :], log_probs)
    scores, index = (beam_scores[:, None] + rows).reshape(-1).topk(beam_width)
    parents, tokens = index // V, index % V
    return scores, parents, tokens, tokens == eos_id
