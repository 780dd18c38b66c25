# expect: loses freeze_except -- "raise `ValueError` if a pattern matches **no** parameter ... a pattern that names only buffers matches no parameter": the typo check runs against every name of the model's state (`named_parameters()` and `named_buffers()`), so a pattern that names only buffers ("*running_mean", "embeddings.position_ids", "bn.num_batches_tracked") passes the check and freezes everything else without an error; freezing and counting use the parameters only, and are right
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    known = [name for name, _ in model.named_parameters()] + [name for name, _ in model.named_buffers()]
    for pattern in patterns:
        if not any(fnmatch.fnmatchcase(name, pattern) for name in known):
            raise ValueError(f"pattern {pattern!r} matches nothing in the model (a typo?)")
    count = 0
    for name, param in model.named_parameters():
        keep = any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)
        param.requires_grad_(keep)
        count += param.numel() if keep else 0
    return count
