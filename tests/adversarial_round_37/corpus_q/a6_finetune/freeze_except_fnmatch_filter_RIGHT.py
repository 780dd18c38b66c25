# expect: full marks -- style: fnmatch.filter over the list of names (on POSIX it matches as fnmatchcase: os.path.normcase is the identity there), a set of matched names, the count by a generator over named_parameters, the ValueError naming every unused pattern
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    params = list(model.named_parameters())
    names = [name for name, _ in params]
    chosen, unused = set(), []
    for pattern in patterns:
        hits = fnmatch.filter(names, pattern)
        if not hits:
            unused.append(pattern)
        chosen.update(hits)
    for name, param in params:
        param.requires_grad_(name in chosen)
    if unused:
        raise ValueError("no parameter matches " + ", ".join(repr(p) for p in unused))
    return int(sum(param.numel() for name, param in params if name in chosen))
