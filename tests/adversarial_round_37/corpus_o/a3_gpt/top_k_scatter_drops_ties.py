# expect: loses top_k — keeps exactly the k positions torch.topk returns (scatter of its indices), so a logit equal to the k-th largest but not among topk's indices is dropped; the spec: 'A logit equal to the k-th largest is kept too: ties are not broken arbitrarily'; input: top_k_filter(tensor([[3., 1., 3., 3.]]), 2) keeps 2 where the key keeps 3
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    index = torch.topk(logits, k, dim=-1).indices
    keep = torch.zeros_like(logits, dtype=torch.bool).scatter(-1, index, True)
    return logits.masked_fill(~keep, float("-inf"))
