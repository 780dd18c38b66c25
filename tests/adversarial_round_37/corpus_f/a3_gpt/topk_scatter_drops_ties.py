# expect: loses top_k -- scatters the k values topk returns into a -inf tensor, so of several logits equal to the k-th largest only the ones topk happened to pick survive; spec: "A logit equal to the k-th largest is kept too: ties are not broken arbitrarily"
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    values, indices = torch.topk(logits, k, dim=-1)
    filtered = torch.full_like(logits, float("-inf"))
    return filtered.scatter(-1, indices, values)
