# expect: loses rel_bucket -- rounds the logarithmic bucket instead of truncating: with the defaults relative position -20 gives 8 + round(2.64) = 11 instead of 10 (2.64 is far from an integer)
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    out = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets = num_buckets // 2
        out += torch.where(relative_position > 0, num_buckets, 0)
        n = relative_position.abs()
    else:
        n = (-relative_position).clamp(min=0)
    max_exact = num_buckets // 2
    val = max_exact + torch.round(
        torch.log(n.double().clamp(min=1) / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).long()
    val = val.clamp(max=num_buckets - 1)
    return out + torch.where(n < max_exact, n, val)
