# expect: loses freeze_except -- credits each parameter to the first pattern that matches it (next(...)), so a pattern whose every parameter an earlier pattern also matches is reported as matching nothing; "raise ValueError if a pattern matches no parameter"; TinyClassifier, ["*", "head.*"]: key 8243, this answer ValueError; ["*bias", "head.bias"]: key 371, this answer ValueError; ["head.*", "*"] and ["*bias", "head.*"]: equal
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    used = set()
    trainable = 0
    for name, param in model.named_parameters():
        hit = next((pattern for pattern in patterns if fnmatch.fnmatchcase(name, pattern)), None)  # the first that fits
        param.requires_grad_(hit is not None)
        if hit is not None:
            used.add(hit)
            trainable += param.numel()
    unused = [pattern for pattern in patterns if pattern not in used]
    if unused:
        raise ValueError(f"no parameter name matches {unused}")
    return trainable
