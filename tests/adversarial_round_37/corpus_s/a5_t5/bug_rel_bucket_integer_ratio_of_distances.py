# expect: loses rel_bucket -- the log's denominator as `math.log(max_distance // max_exact)`, an integer ratio, where the rule has ln(max_distance / max_exact); equal whenever max_exact divides max_distance (the defaults 32 / 128 and the visible 8 / 20); bidirectional, num_buckets 32, max_distance 100 (max_exact 8, 12.5 vs 12): 14 of the positions -200 .. 200 differ, e.g. -72: key 14, answer 15; -52: key 13, answer 14; +15: key 25, answer 26; -15: key 9, answer 10; 32 / 128: 0 differ
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    relative_position = relative_position.clamp(min=-(2**63) + 1)
    buckets = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        buckets = buckets + (relative_position > 0).long() * num_buckets
        distance = relative_position.abs()
    else:
        distance = (-relative_position).clamp(min=0)
    max_exact = num_buckets // 2
    scaled = torch.log(distance.clamp(min=1).double() / max_exact) / math.log(max_distance // max_exact) * (num_buckets - max_exact)
    large = (max_exact + scaled.long()).clamp(max=num_buckets - 1)
    return buckets + torch.where(distance < max_exact, distance, large)
