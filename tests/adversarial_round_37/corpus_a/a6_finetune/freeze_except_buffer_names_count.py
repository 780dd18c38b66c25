# expect: loses freeze_except  -- checks the patterns against model.state_dict() names (parameters AND buffers), so a pattern that names only a buffer does not raise ValueError; spec: "Buffers ... are not parameters: leave them alone, do not count them, and a pattern that names only buffers matches no parameter"
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    names = list(model.state_dict().keys())  # every named tensor of the model
    for pattern in patterns:
        if not any(fnmatch.fnmatchcase(name, pattern) for name in names):
            raise ValueError(f"pattern {pattern!r} matches no parameter")
    total = 0
    for name, param in model.named_parameters():
        train = any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)
        param.requires_grad = train
        if train:
            total += param.numel()
    return int(total)
