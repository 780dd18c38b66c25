# expect: loses rel_bucket -- the logarithmic bucket is rounded to the nearest integer instead of truncated: relative position -20 (defaults) gives 8 + round(2.64) = 11 instead of 10
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    offset = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets = num_buckets // 2
        offset = torch.where(relative_position > 0, num_buckets, 0)
        n = relative_position.abs()
    else:
        n = torch.clamp(-relative_position, min=0)
    max_exact = num_buckets // 2
    log_ratio = torch.log(n.float().clamp(min=1) / max_exact) / math.log(max_distance / max_exact)
    log_bucket = max_exact + torch.round(log_ratio * (num_buckets - max_exact)).long()
    log_bucket = torch.clamp(log_bucket, max=num_buckets - 1)
    return offset + torch.where(n < max_exact, n, log_bucket)
