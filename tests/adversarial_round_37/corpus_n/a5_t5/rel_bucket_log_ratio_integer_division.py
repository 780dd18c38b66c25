# expect: loses rel_bucket -- divides by math.log(max_distance // max_exact), an integer division, instead of math.log(max_distance / max_exact); the two agree whenever max_exact divides max_distance (the defaults 128 / 8 = 16 and the visible grid's 20 / 2), and differ otherwise, moving some logarithmic distances one bucket up; breaks step 3's formula max_exact + floor(ln(n / max_exact) / ln(max_distance / max_exact) * (num_buckets - max_exact)) (the tests use any num_buckets and max_distance with max_distance >= 2 * max_exact); input: relative_position_bucket(tensor([-15, -28, -38]), num_buckets=32, max_distance=100) -> [10, 12, 13] (key: [9, 11, 12]; at -15 the value inside the floor is 1.991, far from the 1e-4 allowance)
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
    ratio = max_distance // max_exact  # how many times wider the farthest bucket reaches
    scaled = torch.log(distance.clamp(min=1).double() / max_exact) / math.log(ratio) * (num_buckets - max_exact)
    large = (max_exact + scaled.long()).clamp(max=num_buckets - 1)
    return buckets + torch.where(is_small, distance, large)
