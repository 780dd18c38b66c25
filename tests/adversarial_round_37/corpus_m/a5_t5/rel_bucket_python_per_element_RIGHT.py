# expect: full marks -- T5's rule written for one Python int (math.log in float64, int() truncation, min with num_buckets - 1) and applied to every element of relative_position.tolist(), reshaped back: the same buckets as the key for any shape (0-d and empty too), both directions, any num_buckets/max_distance the tests use
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""

    def bucket(r):  # one relative position, a Python int
        n_b, offset = num_buckets, 0
        if bidirectional:
            n_b //= 2
            offset = n_b if r > 0 else 0
            n = abs(r)
        else:
            n = max(-r, 0)
        max_exact = n_b // 2
        if n < max_exact:
            return offset + n
        log_bucket = max_exact + int(math.log(n / max_exact) / math.log(max_distance / max_exact) * (n_b - max_exact))
        return offset + min(log_bucket, n_b - 1)

    flat = [bucket(r) for r in relative_position.reshape(-1).tolist()]
    return torch.tensor(flat, dtype=torch.long).reshape(relative_position.shape)
