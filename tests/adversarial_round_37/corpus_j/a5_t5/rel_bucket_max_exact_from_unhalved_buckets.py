# expect: loses rel_bucket -- max_exact is computed from num_buckets before the bidirectional halving (16 instead of 8 with the defaults), so distances 8..15 stay exact and everything from 16 on is the last bucket: relative position -12 gives 12 instead of 9
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    max_exact = num_buckets // 2  # half of the buckets are exact
    ret = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        ret += (relative_position > 0).long() * num_buckets
        n = torch.abs(relative_position)
    else:
        n = torch.max(-relative_position, torch.zeros_like(relative_position))
    is_small = n < max_exact
    val_if_large = max_exact + (
        torch.log(n.double() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).long()
    val_if_large = torch.min(val_if_large, torch.full_like(val_if_large, num_buckets - 1))
    ret += torch.where(is_small, n, val_if_large)
    return ret
