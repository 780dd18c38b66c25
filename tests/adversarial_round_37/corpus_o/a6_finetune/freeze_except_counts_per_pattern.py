# expect: loses freeze_except — counts the trainable numbers pattern by pattern (for each pattern, the numel of every parameter it matches), so a parameter matched by two patterns is counted twice; the spec: 'return the number of trainable parameters counted in numbers (p.numel() summed)'; the visible asserted pattern lists never overlap; input: TinyClassifier(), patterns ["*bias", "head.*"] (head.bias matched twice) -> file 422, key 419 (head.bias's 3 numbers counted twice)
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    params = dict(model.named_parameters())
    for p in params.values():
        p.requires_grad_(False)
    total = 0
    for pattern in patterns:
        hits = [name for name in params if fnmatch.fnmatchcase(name, pattern)]
        if not hits:
            raise ValueError(f"pattern {pattern!r} matches no parameter")
        for name in hits:
            params[name].requires_grad_(True)
            total += params[name].numel()
    return total
