# expect: loses rel_bucket -- the denominator's ratio is computed with integer division, ln(max_distance // max_exact): the same as the spec's for the defaults (128 / 8 = 16) and any max_distance that is a multiple of max_exact, but with max_distance = 100 and 32 buckets (100 // 8 = 12, not 12.5) distances 15, 28, 38, 52-53 and 71-72 land one bucket higher (15: bucket 10 instead of 9); spec: "max_exact + floor( ln(n / max_exact) / ln(max_distance / max_exact) * (num_buckets - max_exact) )"
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    buckets = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2  # half the buckets for keys before the query, half for keys after it
        buckets = buckets + (relative_position > 0).long() * num_buckets
        distance = relative_position.abs()
    else:
        distance = (-relative_position).clamp(min=0)  # keys after the query count as distance 0
    max_exact = num_buckets // 2  # the distances below it are buckets of their own
    is_small = distance < max_exact
    ratio = max_distance // max_exact  # how many times wider the last bucket reaches
    scaled = torch.log(distance.clamp(min=1).double() / max_exact) / math.log(ratio) * (num_buckets - max_exact)
    large = (max_exact + scaled.long()).clamp(max=num_buckets - 1)
    return buckets + torch.where(is_small, distance, large)
