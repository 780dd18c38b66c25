# expect: full marks -- matches with fnmatch.filter(names, pattern), which applies os.path.normcase to names and pattern; on POSIX (where the course and its tests run) normcase is the identity, so fnmatch.filter is exactly fnmatchcase, case included; counts with a generator over a dict of parameters; same flags, counts and ValueError as the key for every recipe, sets, negated sets, ? and patterns naming only buffers
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    params = dict(model.named_parameters())
    chosen = set()
    for pattern in patterns:
        hits = fnmatch.filter(params, pattern)  # os.path.normcase is the identity on POSIX: fnmatchcase
        if not hits:
            raise ValueError(f"pattern {pattern!r} matches no parameter")
        chosen.update(hits)
    for name, param in params.items():
        param.requires_grad = name in chosen
    return int(sum(params[name].numel() for name in chosen))
