# expect: loses rel_bucket -- casts the relative positions to torch.int32 ('buckets are small numbers') before taking the distance, so a relative position outside the int32 range wraps around: -(2**32 + 3) becomes -3 and gets bucket 3 instead of the last bucket, 2**31 becomes -2**31; the visible values are small and pass; breaks 'relative_position is a torch.long tensor of any shape ... all beyond max_distance in the last bucket'; input: relative_position_bucket(tensor([-(2**32 + 3), 2**31])) -> [3, -2147483648] (key: [15, 31])
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    relative_position = relative_position.to(torch.int32)  # bucket arithmetic fits in 32 bits
    buckets = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        buckets = buckets + (relative_position > 0).int() * num_buckets
        distance = relative_position.abs()
    else:
        distance = (-relative_position).clamp(min=0)
    max_exact = num_buckets // 2
    is_small = distance < max_exact
    scaled = torch.log(distance.clamp(min=1).double() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    large = (max_exact + scaled.int()).clamp(max=num_buckets - 1)
    return (buckets + torch.where(is_small, distance, large)).long()
