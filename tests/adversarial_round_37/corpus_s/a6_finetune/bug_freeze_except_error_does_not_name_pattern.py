# expect: loses freeze_except -- the ValueError for a pattern that matches nothing does not name the pattern (a fixed message), where the spec says "raise ValueError if a pattern matches no parameter ..., naming it"; TinyClassifier, ["head.*", "haed.*"]: key ValueError("no parameter name matches ['haed.*']"), answer ValueError("a pattern matches no parameter"); 'haed.*' in str(error): key True, answer False; every return value and flag: equal
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    used = [False] * len(patterns)
    trainable = 0
    for name, param in model.named_parameters():
        hits = [fnmatch.fnmatchcase(name, pattern) for pattern in patterns]
        used = [u or h for u, h in zip(used, hits)]
        param.requires_grad_(any(hits))
        if any(hits):
            trainable += param.numel()
    if not all(used):
        raise ValueError("a pattern matches no parameter: check the patterns for typos")
    return trainable
