# expect: loses rel_bucket -- the logarithmic part is scaled by max_exact ("the other half of the buckets") instead of (num_buckets - max_exact); the two are equal whenever the (possibly halved) num_buckets is even, as with every visible setting (32 -> 16, 8 -> 4); breaks the formula "max_exact + floor(ln(n / max_exact) / ln(max_distance / max_exact) (num_buckets - max_exact))"; input: relative_position_bucket(torch.tensor([-100]), num_buckets=30) -> 13 (spec: halved 15, max_exact 7, 7 + floor(0.9151 * 8) = 14)
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    offset = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        offset = (relative_position > 0).long() * num_buckets
        n = relative_position.abs()
    else:
        n = torch.clamp(-relative_position, min=0)
    max_exact = num_buckets // 2
    # the other half of the buckets is spread logarithmically from max_exact out to max_distance
    log_ratio = torch.log(n.clamp(min=1).double() / max_exact) / math.log(max_distance / max_exact)
    large = torch.clamp(max_exact + (log_ratio * max_exact).long(), max=num_buckets - 1)
    return offset + torch.where(n < max_exact, n, large)
