# expect: loses beam_search -- finished beams are carried over AND extended like the others (only the carry is masked), but "a finished beam is never extended": an extension of a strong finished beam can push out a real candidate (e.g. beam 0 finished at log 0.9, beam 1 at log 0.1, width 2: second place must be beam 1's best, not beam 0 + a token)
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    extended = beam_scores[:, None] + log_probs  # (k, V): every extension of every beam
    carried = beam_scores.masked_fill(~finished, float("-inf"))  # finished beams are also carried as they are
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, eos_id, index % V)
    return scores, parents, tokens, is_carried | finished[parents] & ~is_carried | (tokens == eos_id)
