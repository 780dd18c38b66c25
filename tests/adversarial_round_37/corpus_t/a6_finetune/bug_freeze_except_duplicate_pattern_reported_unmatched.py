# expect: loses freeze_except  -- the patterns not yet matched are kept in a list and each parameter a pattern matches crosses off one occurrence (list.remove), so a pattern given more times than it has parameters leaves a copy behind and raises; part 2 raises ValueError only for a pattern that matches no parameter; TinyClassifier, patterns ["head.weight", "head.weight"]: the key returns 48 (head.weight trainable), the answer raises ValueError("pattern(s) ['head.weight'] match no parameter"); ["head.*", "head.*"] passes by coincidence (two parameters cross off the two copies); patterns without repeats: equal
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    unmatched = list(patterns)  # crossed off as they match
    trainable = 0
    for name, param in model.named_parameters():
        hits = {pattern for pattern in patterns if fnmatch.fnmatchcase(name, pattern)}
        for pattern in hits:
            if pattern in unmatched:
                unmatched.remove(pattern)
        param.requires_grad_(bool(hits))
        if hits:
            trainable += param.numel()
    if unmatched:
        raise ValueError(f"pattern(s) {unmatched} match no parameter")
    return trainable
