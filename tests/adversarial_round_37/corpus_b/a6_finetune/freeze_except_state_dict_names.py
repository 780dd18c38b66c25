# expect: loses freeze_except -- checks for typos against model.state_dict() names, which include buffers, so a pattern that names only buffers raises no ValueError; spec: "a pattern that names only buffers matches no parameter" and "raise ValueError if a pattern matches no parameter"
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    for pattern in patterns:  # fail early, before touching the model
        if not any(fnmatch.fnmatchcase(name, pattern) for name in model.state_dict()):
            raise ValueError(f"pattern {pattern!r} matches nothing in the model")
    n = 0
    for name, param in model.named_parameters():
        train = any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)
        param.requires_grad_(train)
        n += param.numel() if train else 0
    return n
