# expect: loses rel_bucket -- looks the buckets up in a table of relative positions -1024..1024, clamping beyond it: wrong once max_distance > 1024 (64 buckets, max_distance 2048: -1500 gives 29 instead of 30, +3000 gives 61 instead of 63); spec: "logarithmically wider for large ones, all beyond max_distance in the last bucket"
# %% [rel_bucket]
_SPAN = 1024


def _bucket_of(rel, bidirectional, num_buckets, max_distance):
    offset = 0
    if bidirectional:
        num_buckets //= 2
        offset = num_buckets if rel > 0 else 0
        n = abs(rel)
    else:
        n = max(-rel, 0)
    max_exact = num_buckets // 2
    if n < max_exact:
        return offset + n
    large = max_exact + int(math.log(n / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact))
    return offset + min(large, num_buckets - 1)


def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    table = torch.tensor([_bucket_of(r, bidirectional, num_buckets, max_distance) for r in range(-_SPAN, _SPAN + 1)])
    index = relative_position.clamp(-_SPAN, _SPAN) + _SPAN  # far positions share the last bucket anyway
    return table[index]
