# expect: full marks -- works on float distances with torch.where and math.log, floor of a non-negative value, offset added last; returns .long()
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    rp = relative_position.to(torch.float64)
    if bidirectional:
        half = num_buckets // 2
        offset = torch.where(rp > 0, float(half), 0.0)
        n = rp.abs()
    else:
        half = num_buckets
        offset = torch.zeros_like(rp)
        n = torch.where(rp < 0, -rp, 0.0)
    max_exact = half // 2
    ratio = torch.where(n >= max_exact, n, float(max_exact)) / max_exact  # >= 1, so the log is >= 0
    log_bucket = max_exact + torch.floor(torch.log(ratio) / math.log(max_distance / max_exact) * (half - max_exact))
    bucket = torch.where(n < max_exact, n, torch.clamp(log_bucket, max=half - 1))
    return (offset + bucket).long()
