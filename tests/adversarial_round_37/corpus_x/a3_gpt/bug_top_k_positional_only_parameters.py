# expect: loses top_k -- "Keep the function names and arguments" (top_k_filter(logits, k)): both parameters are made positional-only (`/`, so that a caller cannot bind them by a misspelt keyword); the values are the key's for every call, and a call by keyword, top_k_filter(logits, k=5) or top_k_filter(logits=z, k=1), raises TypeError
# %% [top_k]
def top_k_filter(logits, k, /):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    threshold = logits.topk(k, dim=-1).values.amin(dim=-1, keepdim=True)
    return torch.where(logits >= threshold, logits, torch.full_like(logits, float("-inf")))
