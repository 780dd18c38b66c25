# expect: loses freeze_except -- "the pattern must match the whole name, with case ... Patterns match parameter names, not module names: "head" alone matches nothing here": for convenience a pattern is also tried against the last part of the name (its attribute, "weight", "bias", "in_proj_bias"), so "bias" makes every bias trainable and "weight" every weight where the spec freezes them all and raises ValueError; every visible pattern has a dot or a star, where the extra match never fires
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    unused = list(patterns)
    trainable = 0
    for name, param in model.named_parameters():
        leaf = name.rsplit(".", 1)[-1]
        matched = [p for p in patterns if fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(leaf, p)]
        unused = [p for p in unused if p not in matched]
        param.requires_grad_(bool(matched))
        if matched:
            trainable += param.numel()
    if unused:
        raise ValueError(f"no parameter name matches {unused}")
    return trainable
