# expect: loses rel_bucket -- "num_buckets becomes num_buckets // 2, a relative position > 0 gets num_buckets (the halved one) added to its bucket": this version gives keys after the query the upper half, offset num_buckets - num_buckets // 2, which is the halved num_buckets only when num_buckets is even; the tests allow any num_buckets with max_exact >= 1 (odd ones too), and with num_buckets = 33 every positive relative position lands one bucket too high (+3 -> 20, not 19); the visible tests use 32 and 8
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    rp = relative_position.clamp(min=torch.iinfo(relative_position.dtype).min + 1)
    offset = torch.zeros_like(rp)
    if bidirectional:
        half = num_buckets // 2
        offset = offset + (rp > 0).long() * (num_buckets - half)  # the upper half of the buckets
        num_buckets = half
        n = rp.abs()
    else:
        n = (-rp).clamp(min=0)
    max_exact = num_buckets // 2
    scaled = torch.log(n.clamp(min=1).double() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    large = (max_exact + scaled.long()).clamp(max=num_buckets - 1)
    return offset + torch.where(n < max_exact, n, large)
