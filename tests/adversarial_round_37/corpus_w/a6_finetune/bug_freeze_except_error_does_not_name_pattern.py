# expect: loses freeze_except -- "raise ValueError if a pattern matches no parameter (most likely a typo: "haed.*"), naming it": the error is raised for the right patterns, but its message is a fixed sentence that names none of them ("a pattern matched no parameter"), so the caller cannot tell which of several patterns was the typo; the visible test only checks that ValueError is raised
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    used = [False] * len(patterns)
    trainable = 0
    for name, param in model.named_parameters():
        hits = [fnmatch.fnmatchcase(name, pattern) for pattern in patterns]
        used = [u or h for u, h in zip(used, hits)]
        param.requires_grad_(any(hits))
        trainable += param.numel() if any(hits) else 0
    if not all(used):
        raise ValueError("a pattern matched no parameter")
    return trainable
