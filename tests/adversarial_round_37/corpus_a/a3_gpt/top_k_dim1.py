# expect: loses top_k  -- works along dim=1, so a single row (V,) crashes and a (B, T, V) tensor is filtered across T instead of V; spec: "Keep, in each row of logits (..., V), the k largest logits"
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    kth = logits.topk(k, dim=1).values[:, -1].unsqueeze(1)  # (B, 1): the k-th largest of each row
    return torch.where(logits >= kth, logits, torch.full_like(logits, float("-inf")))
