# expect: loses rel_bucket -- rounds the logarithmic bucket to the nearest integer instead of truncating it; spec: "truncated to an integer (not rounded), and at most num_buckets - 1"
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    buckets = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        buckets = buckets + (relative_position > 0).long() * num_buckets
        distance = relative_position.abs()
    else:
        distance = (-relative_position).clamp(min=0)
    max_exact = num_buckets // 2
    is_small = distance < max_exact
    scaled = torch.log(distance.clamp(min=1).double() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    large = (max_exact + scaled.round().long()).clamp(max=num_buckets - 1)
    return buckets + torch.where(is_small, distance, large)
