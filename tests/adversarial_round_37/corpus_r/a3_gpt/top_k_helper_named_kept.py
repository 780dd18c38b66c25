# expect: full marks -- (relabelled in stop 69, when the course's read-only cells stopped binding module-level names: the answer is right) was: a module-level helper named `kept`, which the read-only test cell of part 3 rebinds (`for p, kept in [...]`): every visible call of top_k_filter comes before that cell, and after the notebook has run top to bottom top_k_filter raises TypeError; the function must keep working once the notebook's read-only cells have run; z [[1, 5, 3, 4]], k 2 after every cell: key [[-inf, 5, -inf, 4]], this answer TypeError 'list' object is not callable
# %% [top_k]
def kept(logits, k):
    """Where each row's logit is at least its k-th largest (the ties with the k-th included)."""
    return logits >= torch.topk(logits, k, dim=-1).values[..., -1:]


def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    return logits.masked_fill(~kept(logits, k), float("-inf"))
