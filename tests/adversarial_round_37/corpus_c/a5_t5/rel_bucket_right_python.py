# expect: full marks -- each element bucketed by plain Python (math.log, int() truncation), the list turned back into a long tensor of the input's shape and device (0-d included)
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    half = num_buckets // 2 if bidirectional else num_buckets
    max_exact = half // 2

    def one(rel):
        offset = half if (bidirectional and rel > 0) else 0
        n = abs(rel) if bidirectional else max(-rel, 0)
        if n < max_exact:
            return offset + n
        value = math.log(n / max_exact) / math.log(max_distance / max_exact) * (half - max_exact)
        return offset + min(max_exact + int(value), half - 1)

    flat = [one(r) for r in relative_position.reshape(-1).tolist()]
    return torch.tensor(flat, dtype=torch.long, device=relative_position.device).reshape(relative_position.shape)
