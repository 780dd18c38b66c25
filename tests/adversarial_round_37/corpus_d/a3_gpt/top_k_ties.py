# expect: loses top_k -- keeps exactly the k indices topk returns, so a logit tied with the k-th largest is dropped arbitrarily; spec: "A logit equal to the k-th largest is kept too: ties are not broken arbitrarily."
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    keep = torch.zeros_like(logits, dtype=torch.bool).scatter(-1, torch.topk(logits, k, dim=-1).indices, True)
    return logits.masked_fill(~keep, float("-inf"))
