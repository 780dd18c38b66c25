# expect: loses freeze_except (whether a pattern matches anything is checked against model.state_dict()'s names, which include buffers: a model with a BatchNorm1d(4) 'bn' and a Linear(4, 2) 'head', patterns ['head.*', 'bn.running_*']: the key raises ValueError, the answer returns 10 (the head's numbers); models without buffers (the visible TinyClassifier) agree)
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    names = list(model.state_dict())  # every name the model has
    for pattern in patterns:
        if not any(fnmatch.fnmatchcase(name, pattern) for name in names):
            raise ValueError(f"pattern {pattern!r} matches nothing in the model")
    trainable = 0
    for name, param in model.named_parameters():
        keep = any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)
        param.requires_grad_(keep)
        if keep:
            trainable += param.numel()
    return trainable
