# expect: loses freeze_except -- a pattern that matches nothing raises ValueError, but with a generic message that does not say which pattern it was; breaks "raise ValueError if a pattern matches no parameter (most likely a typo: "haed.*"), naming it"; input: freeze_except(TinyClassifier(), ["head.*", "haed.*"]) -> ValueError("a pattern matches no parameter") (spec: the message names "haed.*")
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    matched_any = dict.fromkeys(patterns, False)
    n_trainable = 0
    for name, param in model.named_parameters():
        keep = False
        for pattern in patterns:
            if fnmatch.fnmatchcase(name, pattern):
                matched_any[pattern] = keep = True
        param.requires_grad_(keep)
        if keep:
            n_trainable += param.numel()
    if not all(matched_any.values()):
        raise ValueError("a pattern matches no parameter")
    return n_trainable
