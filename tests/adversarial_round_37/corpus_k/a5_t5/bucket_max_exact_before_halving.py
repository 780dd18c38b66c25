# expect: loses rel_bucket -- max_exact is taken from num_buckets BEFORE the bidirectional halving (16 instead of 8 with the defaults), against "max_exact = num_buckets // 2 (of the possibly halved num_buckets)": distances 9..~100 get wrong buckets (e.g. -12 -> 12 instead of 9, -20 -> 15 instead of 10)
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    max_exact = num_buckets // 2  # the distances below it are buckets of their own
    buckets = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        buckets = buckets + (relative_position > 0).long() * num_buckets
        distance = relative_position.abs()
    else:
        distance = (-relative_position).clamp(min=0)
    scaled = torch.log(distance.clamp(min=1).double() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    large = (max_exact + scaled.long()).clamp(max=num_buckets - 1)
    return buckets + torch.where(distance < max_exact, distance, large)
