# expect: loses rel_bucket -- max_exact = num_buckets // 2 is taken before the bidirectional halving, so the encoder's exact range is twice too wide; "With max_exact = num_buckets // 2 (of the possibly halved num_buckets)"; bidirectional defaults, relative positions [-10, -12, -15, 10, 15]: key [8, 9, 9, 24, 25], this answer [10, 12, 15, 26, 31]; every visible value (-3, 3, -8, ±1000, 0 and the causal ones) agrees
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    rel = relative_position.long()
    max_exact = num_buckets // 2
    if bidirectional:
        num_buckets = num_buckets // 2
        offset = (rel > 0).long() * num_buckets
        n = rel.abs()
    else:
        offset = torch.zeros_like(rel)
        n = torch.clamp(-rel, min=0)
    is_small = n < max_exact
    log_part = torch.log(n.clamp(min=1).double() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    large = torch.clamp(max_exact + log_part.long(), max=num_buckets - 1)
    return offset + torch.where(is_small, n, large)
