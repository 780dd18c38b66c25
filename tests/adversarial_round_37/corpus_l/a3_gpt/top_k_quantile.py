# expect: loses top_k -- keeps the logits at or above the row's (1 - k/V) quantile; torch.quantile interpolates linearly between the (k+1)-th and the k-th largest with weight k/V, and when that step is below half an ulp of the values the threshold rounds down onto the (k+1)-th largest, which is then kept too (it is not a tie: it is smaller); breaks "Keep, in each row ..., the k largest logits ... and set every other entry to -inf"; input: logits = zeros(1000) with logits[0] = 1000.0, logits[1] = 1000.001, k = 1 -> keeps 2 entries (spec: 1)
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    q = 1.0 - k / logits.shape[-1]  # the k largest lie at or above this quantile
    threshold = torch.quantile(logits, q, dim=-1, keepdim=True)
    return logits.masked_fill(logits < threshold, float("-inf"))
