# expect: loses freeze_except -- loops over the patterns and adds each matching parameter's numel per pattern, so a parameter matched by two patterns is counted twice; breaks 'return the number of trainable parameters counted in numbers (p.numel() summed)'; input: freeze_except(TinyClassifier(), ["*bias", "head.*"]) -> key 51 + every other bias, this 3 more (head.bias counted twice) (the visible BitFit recipe with overlap is only printed)
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    for param in model.parameters():
        param.requires_grad_(False)  # everything frozen, then each pattern unfreezes what it names
    trainable = 0
    for pattern in patterns:
        matched = [(name, param) for name, param in model.named_parameters() if fnmatch.fnmatchcase(name, pattern)]
        if not matched:
            raise ValueError(f"no parameter name matches {pattern!r}")
        for name, param in matched:
            param.requires_grad_(True)
            trainable += param.numel()
    return trainable
