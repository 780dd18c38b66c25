# expect: loses freeze_except -- counts numbers pattern by pattern, so a parameter matched by two patterns is counted twice: freeze_except(TinyClassifier(), ["*bias", "head.*"]) counts head.bias twice (returns 3 too many)
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    params = dict(model.named_parameters())
    for p in params.values():
        p.requires_grad_(False)
    n_trainable = 0
    for pattern in patterns:
        names = [name for name in params if fnmatch.fnmatchcase(name, pattern)]
        if not names:
            raise ValueError(f"{pattern!r} matches no parameter")
        for name in names:
            params[name].requires_grad_(True)
            n_trainable += params[name].numel()
    return n_trainable
