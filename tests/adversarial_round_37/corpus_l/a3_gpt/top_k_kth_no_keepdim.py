# expect: loses top_k -- the k-th largest is read as topk(...).values[..., -1] without keeping its axis, so it has shape (...) and broadcasts against (..., V) along the vocabulary axis: right when every leading dim is 1 (the visible (1, 4) row, or a 1-D row), a shape error for (B, V) with B != V, and silently row-mixed when B == V; breaks "Keep, in each row of logits (..., V), the k largest logits" with "any number of leading dimensions"; input: top_k_filter(torch.tensor([[1., 2, 3], [30, 20, 10], [5, 6, 4]]), 1) -> compares row b with the other rows' maxima (spec: keeps 3, 30, 6)
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    kth = torch.topk(logits, k, dim=-1).values[..., -1]  # the k-th largest of the row
    return torch.where(logits >= kth, logits, torch.full_like(logits, float("-inf")))
