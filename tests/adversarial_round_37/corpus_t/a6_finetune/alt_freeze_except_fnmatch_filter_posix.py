# expect: full marks -- fnmatch.filter over the list of parameter names, one pattern at a time (fnmatch.filter applies os.path.normcase, which is the identity on POSIX, so it matches with case exactly as fnmatchcase does on the Linux grader); sets of names, then one pass setting requires_grad
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    params = dict(model.named_parameters())
    keep, unmatched = set(), []
    for pattern in patterns:
        names = fnmatch.filter(list(params), pattern)  # case-sensitive on POSIX
        if not names:
            unmatched.append(pattern)
        keep.update(names)
    if unmatched:
        raise ValueError(f"these patterns match no parameter name: {unmatched}")
    for name, param in params.items():
        param.requires_grad = name in keep
    return int(sum(params[name].numel() for name in keep))
