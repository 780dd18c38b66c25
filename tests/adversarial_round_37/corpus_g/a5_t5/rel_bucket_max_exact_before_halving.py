# expect: loses rel_bucket -- computes max_exact = num_buckets // 2 from the un-halved num_buckets in the bidirectional case, so distances 8..15 (defaults) are exact buckets instead of logarithmic ones
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    max_exact = num_buckets // 2  # half of the buckets are exact
    offset = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        offset = (relative_position > 0).long() * num_buckets
        n = relative_position.abs()
    else:
        n = torch.clamp(-relative_position, min=0)
    log_ratio = torch.log(n.clamp(min=1).float() / max_exact) / math.log(max_distance / max_exact)
    large = max_exact + (log_ratio * (num_buckets - max_exact)).long()
    large = torch.clamp(large, max=num_buckets - 1)
    return offset + torch.where(n < max_exact, n, large)
