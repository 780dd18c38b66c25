# expect: loses rel_bucket -- "Keep the function names and arguments" (the signature relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128)): max_distance and num_buckets are declared in the other order; every call by keyword (the visible tests') is right, and a positional call, as T5's own code makes it (`_relative_position_bucket(rel, bidirectional, num_buckets, max_distance)`), reads 32 buckets as a distance of 32 and 128 as the number of buckets
# %% [rel_bucket]
def relative_position_bucket(relative_position, bidirectional=True, max_distance=128, num_buckets=32):
    """T5's bucket of each relative position (key - query), a torch.long tensor of any shape: same shape, torch.long."""
    rel = relative_position.clamp(min=torch.iinfo(torch.long).min + 1)
    offset = torch.zeros_like(rel)
    if bidirectional:
        num_buckets //= 2
        offset = (rel > 0).long() * num_buckets
        n = rel.abs()
    else:
        n = (-rel).clamp(min=0)
    max_exact = num_buckets // 2
    log_ratio = torch.log(n.clamp(min=1).double() / max_exact) / math.log(max_distance / max_exact)
    large = (max_exact + (log_ratio * (num_buckets - max_exact)).long()).clamp(max=num_buckets - 1)
    return offset + torch.where(n < max_exact, n, large)
