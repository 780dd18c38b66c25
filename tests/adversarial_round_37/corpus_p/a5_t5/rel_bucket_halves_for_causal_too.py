# expect: loses rel_bucket -- halves num_buckets before looking at bidirectional (num_buckets //= 2 outside the if), so the decoder's causal buckets use 16 buckets instead of 32: max_exact 8 instead of 16 and a log range 8..15 instead of 16..31. The visible causal check looks only at -3, 3 and 0 (all below 8), and its -20 is not compared. Breaks step 1 ("If not (the decoder's causal self-attention), there are no keys after the query: ... n = max(-relative_position, 0)", with num_buckets unhalved); input: relative_position [-3, -12, -20, -100, -1000], bidirectional=False -> key [3, 12, 17, 30, 31], this answer [3, 9, 10, 15, 15] (bidirectional: equal)
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    if relative_position.dtype.is_signed:
        relative_position = relative_position.clamp(min=torch.iinfo(relative_position.dtype).min + 1)
    num_buckets //= 2  # half for keys before the query, half for after
    buckets = torch.zeros_like(relative_position)
    if bidirectional:
        buckets = buckets + (relative_position > 0).long() * num_buckets
        distance = relative_position.abs()
    else:
        distance = (-relative_position).clamp(min=0)
    max_exact = num_buckets // 2
    is_small = distance < max_exact
    scaled = torch.log(distance.clamp(min=1).double() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    large = (max_exact + scaled.long()).clamp(max=num_buckets - 1)
    return buckets + torch.where(is_small, distance, large)
