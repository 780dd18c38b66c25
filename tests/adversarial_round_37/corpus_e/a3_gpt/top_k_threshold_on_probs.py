# expect: loses top_k -- finds the k-th largest in softmax probabilities instead of logits: the same set while the probabilities are distinct, but when they underflow (logits far below the row's maximum, e.g. [0, -200, -300, -400] with k = 2 gives probabilities [1, 0, 0, 0]) or round to the same float, every entry tied with the k-th probability is kept; spec: "Keep, in each row of `logits` (..., V), the `k` largest logits and set every other entry to `-inf` ... A logit equal to the k-th largest is kept too"
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    probs = torch.softmax(logits, dim=-1)  # the same order as the logits
    kth = torch.topk(probs, k, dim=-1).values[..., -1:]  # (..., 1): the k-th largest probability
    return logits.masked_fill(probs < kth, float("-inf"))
