# expect: loses top_k -- the k-th largest is taken with .min() over the whole (..., k) tensor, one threshold for every row: logits [[1., 5., 3., 4.], [.1, .2, .3, .4]], k=2 keeps all four logits of row 0
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    top_values = torch.topk(logits, k, dim=-1).values
    threshold = top_values.min()  # the smallest of the k largest
    return torch.where(logits >= threshold, logits, torch.full_like(logits, float("-inf")))
