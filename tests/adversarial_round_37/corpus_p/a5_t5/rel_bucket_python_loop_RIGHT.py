# expect: full marks -- computes each bucket in plain Python over tolist() (math.log on Python floats, int() truncation toward zero, the -2**63 guard by min()), then builds the long tensor back in the input's shape
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    half = num_buckets // 2 if bidirectional else num_buckets
    max_exact = half // 2
    log_range = math.log(max_distance / max_exact)

    def bucket(r):
        offset = half if (bidirectional and r > 0) else 0
        n = min(abs(r), 2 ** 63 - 1) if bidirectional else max(-r, 0)
        if n < max_exact:
            return offset + n
        return offset + min(max_exact + int(math.log(n / max_exact) / log_range * (half - max_exact)), half - 1)

    flat = [bucket(r) for r in relative_position.reshape(-1).tolist()]
    return torch.tensor(flat, dtype=torch.long).reshape(relative_position.shape)
