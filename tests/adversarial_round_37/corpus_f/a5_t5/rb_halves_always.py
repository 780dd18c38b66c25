# expect: loses rel_bucket -- halves num_buckets for the causal case too, so the decoder's buckets use 8 exact and 8 log buckets instead of 16 + 16 (-20 -> 10 instead of 17; the visible causal check looks only at -3, +3 and 0); spec: "If bidirectional (the encoder), half the buckets are for keys before the query ...: num_buckets becomes num_buckets // 2 ... If not (the decoder's causal self-attention) ... n = max(-relative_position, 0)"
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    num_buckets //= 2  # half for each direction
    if bidirectional:
        bucket = (relative_position > 0).long() * num_buckets
        n = relative_position.abs()
    else:
        bucket = torch.zeros_like(relative_position)
        n = (-relative_position).clamp(min=0)
    max_exact = num_buckets // 2
    is_small = n < max_exact
    val_if_large = max_exact + (
        torch.log(n.double().clamp(min=1) / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).long()
    val_if_large = val_if_large.clamp(max=num_buckets - 1)
    return bucket + torch.where(is_small, n, val_if_large)
