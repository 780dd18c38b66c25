# expect: loses rel_bucket -- takes max_exact = num_buckets // 2 of the original num_buckets, not of the halved one, when bidirectional: with the defaults distances 8..15 stay exact buckets; spec: "With max_exact = num_buckets // 2 (of the possibly halved num_buckets), a distance n < max_exact is its own bucket"
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    max_exact = num_buckets // 2  # the exact half of the buckets
    if bidirectional:
        half = num_buckets // 2
        offset = (relative_position > 0).long() * half
        n = relative_position.abs()
    else:
        half = num_buckets
        offset = torch.zeros_like(relative_position)
        n = (-relative_position).clamp(min=0)
    log_ratio = torch.log(n.double().clamp(min=1) / max_exact) / math.log(max_distance / max_exact)
    large = (max_exact + (log_ratio * (half - max_exact)).long()).clamp(max=half - 1)
    return offset + torch.where(n < max_exact, n, large).clamp(max=half - 1)
