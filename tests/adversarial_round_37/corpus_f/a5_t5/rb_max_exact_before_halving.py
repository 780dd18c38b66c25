# expect: loses rel_bucket -- computes max_exact = num_buckets // 2 from the full num_buckets before halving it for the bidirectional case, so with 32 buckets every distance below 16 is "exact" and 8..15 never get logarithmic buckets (-12 -> 12 instead of 9); spec: "Exact buckets. With max_exact = num_buckets // 2 (of the possibly halved num_buckets)"
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    max_exact = num_buckets // 2  # the distances below it are exact
    offset = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        offset = (relative_position > 0).long() * num_buckets
        n = relative_position.abs()
    else:
        n = torch.clamp(-relative_position, min=0)
    log_ratio = torch.log(n.float().clamp(min=1) / max_exact) / math.log(max_distance / max_exact)
    large = torch.clamp(max_exact + (log_ratio * (num_buckets - max_exact)).long(), max=num_buckets - 1)
    return offset + torch.where(n < max_exact, n, large)
