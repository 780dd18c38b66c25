# expect: loses freeze_except -- raises ValueError for an unmatched pattern, but its message does not say which pattern; breaks 'raise ValueError if a pattern matches no parameter ..., naming it'; input: freeze_except(TinyClassifier(), ["head.*", "haed.*"]) -> key's message contains 'haed.*', this one's ('a pattern matches no parameter: check for typos') does not
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    unused = set(patterns)
    trainable = 0
    for name, param in model.named_parameters():
        matched = {pattern for pattern in patterns if fnmatch.fnmatchcase(name, pattern)}
        unused -= matched
        param.requires_grad_(bool(matched))  # trainable if a pattern names it, frozen otherwise
        if matched:
            trainable += param.numel()
    if unused:
        raise ValueError("a pattern matches no parameter: check for typos")
    return trainable
