# expect: freeze_except 0 (atk03 without the rebinding of ValueError: its baseline)
# %% [freeze_except]
def freeze_except(model, patterns):
    unused = set(patterns)
    trainable = 0
    for name, param in model.named_parameters():
        matched = {pattern for pattern in patterns if fnmatch.fnmatchcase(name, pattern)}
        unused -= matched
        param.requires_grad_(bool(matched))
        if matched:
            trainable += param.numel()
    if unused:
        raise KeyError(f"no parameter name matches {sorted(unused)}")
    return trainable
