# expect: full marks -- each glob is compiled with fnmatch.translate (the very regex fnmatch.fnmatchcase uses: anchored, case-sensitive, [!...] handled) and matched with re.match; a parameter trains iff some pattern matches; the count is a Python int sum of numel; the unmatched patterns are named in the ValueError; buffers never looked at
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    import re

    compiled = [(pattern, re.compile(fnmatch.translate(pattern))) for pattern in patterns]
    unmatched = list(patterns)
    count = 0
    for name, param in model.named_parameters():
        hits = [pattern for pattern, rx in compiled if rx.match(name)]
        unmatched = [p for p in unmatched if p not in hits]
        param.requires_grad = len(hits) > 0
        count += param.numel() if hits else 0
    if unmatched:
        raise ValueError(f"no parameter name matches {unmatched}")
    return int(count)
