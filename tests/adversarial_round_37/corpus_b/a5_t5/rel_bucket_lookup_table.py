# expect: loses rel_bucket -- looks buckets up in a table built for relative positions -512..512 and clamps to it, so with max_distance > 512 distances 512..max_distance all get the bucket of 512; spec: "all beyond max_distance in the last bucket" and "A distance n >= max_exact gets max_exact + floor(ln(n / max_exact) / ln(max_distance / max_exact) (num_buckets - max_exact))"
# %% [rel_bucket]
_TABLE_RADIUS = 512
_tables = {}


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
    key = (bidirectional, num_buckets, max_distance)
    if key not in _tables:  # every relative position in -512..512, computed once
        _tables[key] = torch.tensor([_bucket_of(r, *key) for r in range(-_TABLE_RADIUS, _TABLE_RADIUS + 1)], dtype=torch.long)
    index = relative_position.clamp(-_TABLE_RADIUS, _TABLE_RADIUS) + _TABLE_RADIUS
    return _tables[key][index]
