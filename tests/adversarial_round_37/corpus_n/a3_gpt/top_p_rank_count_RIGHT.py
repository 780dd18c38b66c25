# expect: full marks -- counts the size of the nucleus instead of building a drop mask in sorted order: n_keep = the number of sorted tokens whose preceding mass is < p (every token when p >= 1), the rank of each token from scattering arange(V) through the sort order, and -inf where rank >= n_keep; since the preceding mass is non-decreasing this is the key's set, with the same sizes for ties; same values and dtypes for none/one/several leading dims, p in (0, 1], float32 and float64
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    V = logits.shape[-1]
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    probs = torch.softmax(sorted_logits, dim=-1)
    before = F.pad(torch.cumsum(probs, dim=-1)[..., :-1], (1, 0))  # mass ranked above each token
    n_keep = (before < p).sum(dim=-1, keepdim=True) if p < 1 else V  # the smallest set reaching p
    rank = torch.empty_like(order).scatter_(-1, order, torch.arange(V).expand_as(order))  # each token's place
    return logits.masked_fill(rank >= n_keep, float("-inf"))
