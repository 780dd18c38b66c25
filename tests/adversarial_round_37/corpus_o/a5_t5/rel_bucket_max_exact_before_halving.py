# expect: loses rel_bucket — max_exact is taken as num_buckets // 2 before num_buckets is halved for the bidirectional case (the spec: 'max_exact = num_buckets // 2 (of the possibly halved num_buckets)'), so the encoder's exact range is twice too wide; the visible values (-3, +3, -8, +-1000, 0) land on the same buckets by coincidence; input: relative_position_bucket(tensor([-12, 12, -100])) -> file [12, 28, 15], key [9, 25, 15]
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    max_exact = num_buckets // 2  # distances below it are buckets of their own
    if bidirectional:
        num_buckets //= 2
        offset = (relative_position > 0).long() * num_buckets
        n = relative_position.abs()
    else:
        offset = torch.zeros_like(relative_position)
        n = torch.clamp(-relative_position, min=0)
    log_ratio = torch.log(n.clamp(min=1).double() / max_exact) / math.log(max_distance / max_exact)
    large = torch.clamp(max_exact + (log_ratio * (num_buckets - max_exact)).long(), max=num_buckets - 1)
    return offset + torch.where(n < max_exact, n, large)
