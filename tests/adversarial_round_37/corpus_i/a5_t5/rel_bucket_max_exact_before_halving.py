# expect: loses rel_bucket -- max_exact taken from num_buckets before the bidirectional halving (16 instead of 8 with the defaults): distances 8..15 stay exact and everything from 16 on lands in the last bucket; relative position -12 gives 12 instead of 9, +20 gives 31 instead of 26
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    max_exact = num_buckets // 2
    if bidirectional:
        num_buckets //= 2
        offset = (relative_position > 0).long() * num_buckets
        n = relative_position.abs()
    else:
        offset = torch.zeros_like(relative_position)
        n = torch.clamp(-relative_position, min=0)
    log_ratio = torch.log(n.clamp(min=1).double() / max_exact) / math.log(max_distance / max_exact)
    large = torch.clamp(max_exact + (log_ratio * (num_buckets - max_exact)).long(), max=num_buckets - 1)
    return offset + torch.where(n < max_exact, n, large)
