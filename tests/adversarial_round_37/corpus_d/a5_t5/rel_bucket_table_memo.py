# expect: loses rel_bucket -- buckets come from a lookup table memoised on (bidirectional, num_buckets) only, so a later call with another max_distance reuses the first call's table; spec: "all beyond `max_distance` in the last bucket" and the log formula's $\ln(\text{max\_distance} / \text{max\_exact})$
# %% [rel_bucket]
_TABLES = {}  # (bidirectional, num_buckets) -> (offset, table of buckets for distances 0 .. 4095)
_SPAN = 4096


def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    key = (bidirectional, num_buckets)
    if key not in _TABLES:
        half = num_buckets // 2 if bidirectional else num_buckets
        max_exact = half // 2
        n = torch.arange(_SPAN, dtype=torch.float64)
        log_bucket = max_exact + (torch.log(n.clamp(min=1) / max_exact) / math.log(max_distance / max_exact) * (half - max_exact)).long()
        table = torch.where(n < max_exact, n.long(), log_bucket.clamp(max=half - 1))
        _TABLES[key] = (half, table)
    half, table = _TABLES[key]
    if bidirectional:
        offset = (relative_position > 0).long() * half
        distance = relative_position.abs()
    else:
        offset = torch.zeros_like(relative_position)
        distance = (-relative_position).clamp(min=0)
    return offset + table[distance.clamp(max=_SPAN - 1)]
