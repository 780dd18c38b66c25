# expect: loses rel_bucket -- halves num_buckets in the causal case too (only the direction offset is made conditional), but step 1 halves only "If bidirectional": causal buckets of distances >= 8 are wrong (e.g. bidirectional=False, relative position -20: 10 instead of 17)
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    num_buckets //= 2  # one half of the buckets for each direction
    if bidirectional:
        offset = (relative_position > 0).long() * num_buckets
        distance = relative_position.abs()
    else:
        offset = torch.zeros_like(relative_position)
        distance = (-relative_position).clamp(min=0)
    max_exact = num_buckets // 2
    scaled = torch.log(distance.clamp(min=1).double() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    large = (max_exact + scaled.long()).clamp(max=num_buckets - 1)
    return offset + torch.where(distance < max_exact, distance, large)
