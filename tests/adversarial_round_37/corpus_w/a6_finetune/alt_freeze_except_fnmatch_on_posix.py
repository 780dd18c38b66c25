# expect: full marks -- fnmatch.fnmatch normalises case with os.path.normcase, which is the identity on POSIX (Linux, where the course is graded), so it matches exactly as fnmatch.fnmatchcase: whole names, with case; each pattern is checked for a match, the count is p.numel() summed as an int, buffers are never visited (named_parameters), an empty list freezes everything and returns 0, and the ValueError names every unmatched pattern
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    params = dict(model.named_parameters())
    keep = set()
    missing = []
    for pattern in patterns:
        names = [name for name in params if fnmatch.fnmatch(name, pattern)]
        if not names:
            missing.append(pattern)
        keep.update(names)
    for name, param in params.items():
        param.requires_grad = name in keep
    if missing:
        raise ValueError(f"these patterns match no parameter: {missing}")
    return int(sum(params[name].numel() for name in keep))
