# expect: loses freeze_except -- checks that each pattern matches something among model.state_dict() keys, which include buffers, so a pattern naming only buffers (BatchNorm's running_mean, BERT's position_ids) raises no ValueError; spec: "Buffers ... are not parameters: leave them alone, do not count them, and a pattern that names only buffers matches no parameter" and "raise ValueError if a pattern matches no parameter"
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    names = list(model.state_dict().keys())
    for pattern in patterns:
        if not any(fnmatch.fnmatchcase(name, pattern) for name in names):
            raise ValueError(f"pattern {pattern!r} matches nothing in the model (a typo?)")
    total = 0
    for name, param in model.named_parameters():
        keep = any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)
        param.requires_grad = keep
        if keep:
            total += param.numel()
    return total
