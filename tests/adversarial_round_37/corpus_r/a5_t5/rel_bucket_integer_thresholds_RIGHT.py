# expect: full marks -- style: no logarithm per position: the smallest distance of each logarithmic bucket computed once in Python (max_exact * (max_distance / max_exact) ** (j / (num_buckets - max_exact)), rounded up) and the buckets found by torch.searchsorted on int64 thresholds
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    if relative_position.dtype.is_signed:
        relative_position = relative_position.clamp(min=torch.iinfo(relative_position.dtype).min + 1)
    offset = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        offset = offset + (relative_position > 0).long() * num_buckets
        distance = relative_position.abs()
    else:
        distance = (-relative_position).clamp(min=0)
    max_exact = num_buckets // 2
    n_log = num_buckets - max_exact  # the logarithmic buckets max_exact .. num_buckets - 1
    thresholds = [  # the first distance of bucket max_exact + j, j = 1 .. n_log - 1
        math.ceil(max_exact * (max_distance / max_exact) ** (j / n_log) - 1e-9) for j in range(1, n_log)
    ]
    flat = distance.reshape(-1).long()
    large = max_exact + torch.searchsorted(torch.tensor(thresholds, dtype=torch.long), flat, right=True)
    bucket = torch.where(flat < max_exact, flat, large).reshape(distance.shape)
    return offset + bucket
