# expect: loses freeze_except -- checks for unused patterns against state_dict() keys, which include buffers: a pattern naming only buffers (nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3)) with ["1.running_*"]) is accepted (returns 0) instead of raising ValueError
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    names = list(model.state_dict().keys())  # every named tensor of the model
    for pattern in patterns:
        if not any(fnmatch.fnmatchcase(name, pattern) for name in names):
            raise ValueError(f"no parameter matches {pattern!r}")
    count = 0
    for name, param in model.named_parameters():
        keep = any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)
        param.requires_grad_(keep)
        if keep:
            count += param.numel()
    return count
