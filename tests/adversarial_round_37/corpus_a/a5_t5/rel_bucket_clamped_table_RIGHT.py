# expect: full marks -- builds a lookup table over -max_distance..max_distance with Python's math (double precision) and indexes it with the clamped relative positions (exact: every |n| >= max_distance is the last bucket)
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    if bidirectional:
        num_buckets //= 2
    max_exact = num_buckets // 2

    def distance_bucket(n):
        if n < max_exact:
            return n
        scaled = math.log(n / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
        return min(max_exact + int(scaled), num_buckets - 1)

    table = []
    for rel in range(-max_distance, max_distance + 1):
        if bidirectional:
            table.append((num_buckets if rel > 0 else 0) + distance_bucket(abs(rel)))
        else:
            table.append(distance_bucket(max(-rel, 0)))
    table = torch.tensor(table, dtype=torch.long, device=relative_position.device)
    return table[relative_position.clamp(-max_distance, max_distance) + max_distance]
