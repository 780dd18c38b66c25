# expect: loses top_k -- takes the threshold as torch.topk(logits, k).values.min() with no dim, the smallest of ALL rows' top-k values instead of each row's own k-th largest; with one row (the visible test) it is right, with several rows a row keeps every logit at or above the smallest threshold of the batch, so one row's result depends on the other rows; breaks 'Keep, in each row of logits (..., V), the k largest logits'; input: [[1., 5., 3., 4.], [10., 20., 30., 40.]], k = 2 -> row 1 keeps all four logits instead of 30 and 40
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    kth = torch.topk(logits, k, dim=-1).values.min()  # the k-th largest: the smallest of the top k
    return logits.masked_fill(logits < kth, float("-inf"))
