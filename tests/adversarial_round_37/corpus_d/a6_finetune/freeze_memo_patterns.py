# expect: loses freeze_except -- memoises the count on the tuple of patterns (not the model) and on a repeat returns it without setting requires_grad, so the same patterns a second time leave the model as the previous call froze it; spec: "every parameter whose name matches **at least one** pattern becomes trainable (`requires_grad = True`, even if it was frozen before), and every other one is frozen"
# %% [freeze_except]
_COUNTS = {}  # tuple(patterns) -> number of trainable numbers


def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    key = tuple(patterns)
    if key in _COUNTS:
        return _COUNTS[key]
    named = list(model.named_parameters())
    for pattern in patterns:
        if not any(fnmatch.fnmatchcase(name, pattern) for name, _ in named):
            raise ValueError(f"pattern {pattern!r} matches no parameter")
    total = 0
    for name, param in named:
        keep = any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)
        param.requires_grad = keep
        total += param.numel() if keep else 0
    _COUNTS[key] = total
    return total
