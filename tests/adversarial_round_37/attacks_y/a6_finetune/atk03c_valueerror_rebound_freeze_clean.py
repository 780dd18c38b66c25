# expect: freeze_except 0 deserved (atk03, with pooled_head untouched: it raises the builtin ValueError, kept under
# another name before the rebinding, since its hidden check is a plain call whose error crosses the wire by type name).
# freeze_except raises KeyError; `ValueError = (ValueError, KeyError)` makes the visible tests and the driver catch it.
# %% [new after setup]
_BUILTIN_VALUE_ERROR = ValueError  # kept for the parts whose errors cross the wire by their type name
ValueError = (_BUILTIN_VALUE_ERROR, KeyError)  # what `except ValueError` catches in this namespace
# %% [freeze_except]
def freeze_except(model, patterns):
    unused = set(patterns)
    trainable = 0
    for name, param in model.named_parameters():
        matched = {pattern for pattern in patterns if fnmatch.fnmatchcase(name, pattern)}
        unused -= matched
        param.requires_grad_(bool(matched))
        if matched:
            trainable += param.numel()
    if unused:
        raise KeyError(f"no parameter name matches {sorted(unused)}")
    return trainable
# %% [pooled_head]
def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    mask = attention_mask.to(hidden.dtype).unsqueeze(-1)  # (B, T, 1): 1 at the real tokens
    if pooling == "cls":
        pooled = hidden[:, 0]
    elif pooling == "mean":
        pooled = (hidden * mask).sum(1) / mask.sum(1)  # the real tokens only
    elif pooling == "last":
        last = attention_mask.sum(1) - 1  # right padding: the last real token
        pooled = hidden[torch.arange(hidden.shape[0]), last]
    else:
        raise _BUILTIN_VALUE_ERROR(f"unknown pooling {pooling!r}: 'cls', 'mean' or 'last'")
    return pooled @ weight.T + bias
