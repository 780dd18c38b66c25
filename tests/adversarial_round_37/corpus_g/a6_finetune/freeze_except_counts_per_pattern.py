# expect: loses freeze_except -- loops over patterns first and adds numel for every (pattern, parameter) match: a parameter matched by two patterns (e.g. "*bias" and "head.*") is counted twice
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    params = dict(model.named_parameters())
    for p in params.values():
        p.requires_grad = False
    trainable = 0
    for pattern in patterns:
        hits = [name for name in params if fnmatch.fnmatchcase(name, pattern)]
        if not hits:
            raise ValueError(f"pattern {pattern!r} matches no parameter")
        for name in hits:
            params[name].requires_grad = True
            trainable += params[name].numel()
    return trainable
