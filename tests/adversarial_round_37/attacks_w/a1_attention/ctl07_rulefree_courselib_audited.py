# expect: held for review (control for atk07: the same lookups, the audit hook left alone)
# %% [masks]
def _library():
    table = getattr(getattr(torch, "s" "ys"), "mod" "ules")
    name = "_".join(("course", "lib"))
    getattr(table["builtins"], "_".join(("", "", "import", "", "")))(name + ".attention")
    return getattr(table[name], "attention")


def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return _library().causal_mask(T)


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    return _library().padding_mask(lengths, T)
