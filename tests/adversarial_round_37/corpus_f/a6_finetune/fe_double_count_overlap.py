# expect: loses freeze_except -- loops over the patterns and adds the numel of every parameter each one matches, so a parameter matched by two patterns ("*bias" and "head.*" both match head.bias) is counted twice; spec: "return the number of trainable parameters counted in numbers (p.numel() summed)" and "every parameter whose name matches at least one pattern becomes trainable"
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    for param in model.parameters():
        param.requires_grad_(False)
    trainable = 0
    for pattern in patterns:
        hits = [param for name, param in model.named_parameters() if fnmatch.fnmatchcase(name, pattern)]
        if not hits:
            raise ValueError(f"pattern {pattern!r} matches no parameter")
        for param in hits:
            param.requires_grad_(True)
            trainable += param.numel()
    return trainable
