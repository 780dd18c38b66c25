# expect: loses freeze_except -- also matches each pattern against the parameter's module path and its prefixes ("helpfully", so that "head" or "blocks.1" name a whole module): "head" makes head.weight and head.bias trainable instead of raising ValueError; spec: "Patterns match parameter names, not module names: `"head"` alone matches nothing here, `"head.*"` does" and "raise `ValueError` if a pattern matches **no** parameter"
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    unused = set(patterns)
    trainable = 0
    for name, param in model.named_parameters():
        parts = name.split(".")
        prefixes = [".".join(parts[:i]) for i in range(1, len(parts) + 1)]  # blocks, blocks.0, ..., the full name
        matched = {pattern for pattern in patterns if any(fnmatch.fnmatchcase(prefix, pattern) for prefix in prefixes)}
        unused -= matched
        param.requires_grad_(bool(matched))  # trainable if a pattern names it or its module, frozen otherwise
        if matched:
            trainable += param.numel()
    if unused:
        raise ValueError(f"no parameter name matches {sorted(unused)}")
    return trainable
