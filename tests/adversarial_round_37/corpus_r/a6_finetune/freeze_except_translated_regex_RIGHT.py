# expect: full marks -- style: each glob compiled once with fnmatch.translate (the very regex fnmatchcase uses) and matched with re's match (translate's pattern is anchored by \Z); counts collected in a dict
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    import re

    compiled = {pattern: re.compile(fnmatch.translate(pattern)) for pattern in patterns}
    hits = dict.fromkeys(patterns, 0)
    trainable = 0
    for name, param in model.named_parameters():
        matching = [pattern for pattern, regex in compiled.items() if regex.match(name)]
        for pattern in matching:
            hits[pattern] += 1
        param.requires_grad = bool(matching)
        trainable += param.numel() if matching else 0
    missing = [pattern for pattern, n in hits.items() if n == 0]
    if missing:
        raise ValueError(f"these patterns match no parameter: {missing}")
    return int(trainable)
