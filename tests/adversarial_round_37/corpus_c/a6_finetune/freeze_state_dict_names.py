# expect: loses freeze_except -- checks the patterns against the state_dict's names, which include buffers, so a pattern naming only buffers raises nothing; spec: "Buffers ... are not parameters ... a pattern that names only buffers matches no parameter" and "raise ValueError if a pattern matches no parameter"
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    for pattern in patterns:
        if not any(fnmatch.fnmatchcase(name, pattern) for name in model.state_dict()):
            raise ValueError(f"pattern {pattern!r} matches nothing in the model")
    trainable = 0
    for name, param in model.named_parameters():
        keep = any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)
        param.requires_grad_(keep)
        trainable += param.numel() if keep else 0
    return trainable
