# expect: loses rel_bucket -- computes max_exact = num_buckets // 2 from the num_buckets it was given, before the bidirectional halving, so in the encoder distances up to the halved count are 'exact' and the logarithmic range collapses; breaks 'With max_exact = num_buckets // 2 (of the possibly halved num_buckets)'; input: relative_position_bucket(torch.tensor([-10, 12, -20])) -> key [8, 25, 10], this [10, 28, 15] (the visible examples -3, 3, -8, -1000, 1000 and the causal ones happen to agree)
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    buckets = torch.zeros_like(relative_position)
    max_exact = num_buckets // 2  # the distances below it are buckets of their own
    if bidirectional:
        num_buckets //= 2  # half the buckets for keys before the query, half for keys after it
        buckets = buckets + (relative_position > 0).long() * num_buckets
        distance = relative_position.abs()
    else:
        distance = (-relative_position).clamp(min=0)  # keys after the query count as distance 0
    is_small = distance < max_exact
    # logarithmically wider buckets from max_exact to max_distance, truncated toward zero
    scaled = torch.log(distance.clamp(min=1).double() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    large = (max_exact + scaled.long()).clamp(max=num_buckets - 1)
    return buckets + torch.where(is_small, distance, large)
