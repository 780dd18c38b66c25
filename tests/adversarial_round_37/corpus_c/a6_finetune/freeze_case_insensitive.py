# expect: loses freeze_except -- matches case-insensitively (lower-cases names and patterns); spec: "matched as fnmatch.fnmatchcase(name, pattern) matches them ... the pattern must match the whole name, with case"
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    unused = set(patterns)
    trainable = 0
    for name, param in model.named_parameters():
        matched = {pattern for pattern in patterns if fnmatch.fnmatchcase(name.lower(), pattern.lower())}
        unused -= matched
        param.requires_grad_(bool(matched))
        if matched:
            trainable += param.numel()
    if unused:
        raise ValueError(f"no parameter name matches {sorted(unused)}")
    return trainable
