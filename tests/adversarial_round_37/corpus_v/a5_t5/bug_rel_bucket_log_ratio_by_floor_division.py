# expect: loses rel_bucket -- the denominator log(max_distance / max_exact) computed as log(max_distance // max_exact): exact whenever max_distance is a multiple of max_exact (every power-of-two setting, T5's 32/128 included: 0 of 401 positions differ); num_buckets 32, max_distance 100 (max_exact 8, 100 // 8 = 12 instead of 12.5) -> 14 of the positions -200..200 differ, relative position -72 in bucket 15 instead of 14 and -53 in 14 instead of 13 (far from the 1e-4 band where either bucket is accepted)
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    rp = relative_position.clamp(min=-(2**63) + 1)
    offset = torch.zeros_like(rp)
    if bidirectional:
        num_buckets //= 2
        offset = (rp > 0).long() * num_buckets
        n = rp.abs()
    else:
        n = (-rp).clamp(min=0)
    max_exact = num_buckets // 2
    ratio = max_distance // max_exact  # how many times wider the log range is than the exact one
    scaled = torch.log(n.clamp(min=1).double() / max_exact) / math.log(ratio) * (num_buckets - max_exact)
    large = (max_exact + scaled.long()).clamp(max=num_buckets - 1)
    return offset + torch.where(n < max_exact, n, large)
