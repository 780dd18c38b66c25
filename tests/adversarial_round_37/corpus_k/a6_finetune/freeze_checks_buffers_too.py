# expect: loses freeze_except -- checks for unmatched patterns against state_dict() keys, which include buffers, so a pattern that names only buffers (e.g. "bn.running_*" on a model with a BatchNorm) does not raise ValueError, although "a pattern that names only buffers matches no parameter"
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    for pattern in patterns:  # a typo matches nothing in the model
        if not any(fnmatch.fnmatchcase(name, pattern) for name in model.state_dict()):
            raise ValueError(f"pattern {pattern!r} matches nothing in the model")
    trainable = 0
    for name, param in model.named_parameters():
        train = any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)
        param.requires_grad_(train)
        trainable += param.numel() if train else 0
    return trainable
