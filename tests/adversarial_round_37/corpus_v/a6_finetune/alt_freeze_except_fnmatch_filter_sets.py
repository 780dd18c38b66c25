# expect: full marks -- the matched names as a union of fnmatch.filter(names, pattern) sets (on POSIX fnmatch.filter compares case-sensitively, as fnmatchcase), each pattern's own set checked for emptiness, requires_grad set by membership, the count summed with math.fsum-free int arithmetic
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    params = dict(model.named_parameters())
    hits = {pattern: set(fnmatch.filter(list(params), pattern)) for pattern in patterns}
    empty = [pattern for pattern, names in hits.items() if not names]
    if empty:
        raise ValueError(f"patterns matching no parameter: {empty}")
    chosen = set().union(*hits.values()) if hits else set()
    for name, param in params.items():
        param.requires_grad = name in chosen
    return int(sum(params[name].numel() for name in chosen))
