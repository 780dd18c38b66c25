# expect: full marks -- tabulates the bucket of every distance 0..max_distance once in Python (math.log, int() truncation, capped at num_buckets - 1) and looks the distances up in that table after clamping them to max_distance (every distance >= max_distance is in the last bucket, since its logarithmic ratio is >= 1); direction offset as the key; same buckets and dtype as the key for both directions, many (num_buckets, max_distance) settings, 0-d to 3-d tensors and huge positions (up to +-2**62)
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    if bidirectional:
        num_buckets //= 2
        offset = (relative_position > 0).long() * num_buckets
        distance = relative_position.abs()
    else:
        offset = torch.zeros_like(relative_position)
        distance = (-relative_position).clamp(min=0)
    max_exact = num_buckets // 2
    table = [
        n if n < max_exact
        else min(max_exact + int(math.log(n / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)), num_buckets - 1)
        for n in range(max_distance + 1)
    ]  # the bucket of each distance 0 .. max_distance; farther ones share the last
    return offset + torch.tensor(table, dtype=torch.long)[distance.clamp(max=max_distance)]
