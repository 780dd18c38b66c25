# expect: loses freeze_except -- the list of parameter names is memoised per model class (a dict keyed by type(model)), to avoid walking the module tree again: a second model of the same class with other sizes or more layers (TinyClassifier(n_layers=3) after TinyClassifier()) is matched against the first one's names: "blocks.2.*" raises ValueError though it matches, and block 2's parameters are never changed; every call on models of one architecture (the visible tests) agrees with the key
# %% [freeze_except]
_NAMES = {}


def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    names = _NAMES.setdefault(type(model), [name for name, _ in model.named_parameters()])
    params = dict(model.named_parameters())
    unused = [pattern for pattern in patterns if not fnmatch.filter(names, pattern)]
    if unused:
        raise ValueError(f"no parameter name matches {unused}")
    total = 0
    for name in names:
        param = params.get(name)
        if param is None:
            continue
        keep = any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)
        param.requires_grad_(keep)
        total += param.numel() if keep else 0
    return total
