# expect: loses rel_bucket -- halves with round(n / 2) instead of n // 2, and Python rounds 3.5 to 4 (half to even): right whenever the halved number is even or 1 mod 4, wrong when it is 3 mod 4; "num_buckets becomes num_buckets // 2", "max_exact = num_buckets // 2"; num_buckets 14, max_distance 64, bidirectional, positions -40..40: 20 buckets differ (-6: key 3, answer 4; +6: key 10, answer 11); num_buckets 7 causal: 10 differ; 32, 8, 16, 12: equal
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    if relative_position.dtype.is_signed:
        relative_position = relative_position.clamp(min=torch.iinfo(relative_position.dtype).min + 1)
    buckets = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets = round(num_buckets / 2)  # half the buckets for each direction
        buckets = buckets + (relative_position > 0).long() * num_buckets
        distance = relative_position.abs()
    else:
        distance = (-relative_position).clamp(min=0)
    max_exact = round(num_buckets / 2)
    is_small = distance < max_exact
    scaled = torch.log(distance.clamp(min=1).double() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    large = (max_exact + scaled.long()).clamp(max=num_buckets - 1)
    return buckets + torch.where(is_small, distance, large)
