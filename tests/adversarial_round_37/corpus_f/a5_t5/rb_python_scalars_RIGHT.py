# expect: full marks -- applies the rule to one Python int at a time with math.log in double precision and int() truncation (the value is non-negative, so int() is the floor), then rebuilds a torch.long tensor of the input's shape (0-d and empty inputs included)
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    half = num_buckets // 2 if bidirectional else num_buckets
    max_exact = half // 2

    def bucket(rel):
        offset = half if (bidirectional and rel > 0) else 0
        n = abs(rel) if bidirectional else max(-rel, 0)
        if n < max_exact:
            return offset + n
        scaled = math.log(n / max_exact) / math.log(max_distance / max_exact) * (half - max_exact)
        return offset + min(max_exact + int(scaled), half - 1)

    flat = [bucket(r) for r in relative_position.reshape(-1).tolist()]
    return torch.tensor(flat, dtype=torch.long, device=relative_position.device).reshape(relative_position.shape)
