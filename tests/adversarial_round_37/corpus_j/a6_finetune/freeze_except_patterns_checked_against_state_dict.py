# expect: loses freeze_except -- checks each pattern against model.state_dict() keys, which include buffers, so a pattern that names only a buffer raises no ValueError: nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2)) with ["*running_mean"] returns 0 instead of raising
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    names = list(model.state_dict().keys())
    for pattern in patterns:
        if not any(fnmatch.fnmatchcase(name, pattern) for name in names):
            raise ValueError(f"pattern {pattern!r} matches nothing in the model")
    total = 0
    for name, param in model.named_parameters():
        keep = any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)
        param.requires_grad = keep
        total += param.numel() if keep else 0
    return total
