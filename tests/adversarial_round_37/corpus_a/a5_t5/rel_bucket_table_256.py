# expect: loses rel_bucket  -- looks buckets up in a table built for relative positions -256..256 (clamping beyond), which is only right while max_distance <= 256; with max_distance = 1024 a distance of 600 gets the bucket of 256; spec: "relative_position is a torch.long tensor of any shape" and the rule's "all beyond max_distance in the last bucket" (distances below max_distance keep their own logarithmic bucket)
# %% [rel_bucket]
_SPAN = 256  # relative positions the table covers: -256 .. 256; farther ones share the edge bucket


def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    n_b = num_buckets // 2 if bidirectional else num_buckets
    max_exact = n_b // 2
    table = []
    for rel in range(-_SPAN, _SPAN + 1):
        offset = n_b if (bidirectional and rel > 0) else 0
        n = abs(rel) if bidirectional else max(-rel, 0)
        if n < max_exact:
            b = n
        else:
            b = max_exact + int(math.log(n / max_exact) / math.log(max_distance / max_exact) * (n_b - max_exact))
            b = min(b, n_b - 1)
        table.append(offset + b)
    table = torch.tensor(table, dtype=torch.long)
    return table[relative_position.clamp(-_SPAN, _SPAN) + _SPAN]
