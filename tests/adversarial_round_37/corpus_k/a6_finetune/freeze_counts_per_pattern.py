# expect: loses freeze_except -- sums numel per (pattern, parameter) match, so a parameter matched by two patterns is counted twice (e.g. ["head.*", "*bias"] on TinyClassifier counts head.bias twice: 3 too many); the spec returns the number of trainable numbers
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    params = dict(model.named_parameters())
    for param in params.values():
        param.requires_grad_(False)
    trainable = 0
    for pattern in patterns:
        matched = [name for name in params if fnmatch.fnmatchcase(name, pattern)]
        if not matched:
            raise ValueError(f"no parameter name matches {pattern!r}")
        for name in matched:
            params[name].requires_grad_(True)
            trainable += params[name].numel()
    return trainable
