# expect: loses freeze_except -- only patterns with a wildcard (* ? [) are checked for matching nothing; a literal name with a typo ("head.wieght", "norm.weight " ) matches nothing and raises no ValueError (it is taken for an exact name that must simply be absent): freeze_except(model, ["head.*", "head.wieght"]) returns 51 instead of raising; a wildcard typo ("haed.*") still raises, and every count agrees
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    names = [name for name, _ in model.named_parameters()]
    for pattern in patterns:
        if any(ch in pattern for ch in "*?[") and not fnmatch.filter(names, pattern):
            raise ValueError(f"pattern {pattern!r} matches no parameter")
    total = 0
    for name, param in model.named_parameters():
        keep = any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)
        param.requires_grad_(keep)
        total += param.numel() if keep else 0
    return total
