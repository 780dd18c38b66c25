# expect: loses masks -- control for atk09: the same import compiled under "<shim>" (the audit hook should record it and hold masks)
# %% [masks]
def _library():
    name = "noitnetta.bil_esruoc"[::-1]
    found = {}
    shim = "<shim>"  # control: a name the walk does not stop at
    exec(compile(f"import {name} as m", shim, "exec"), found)
    return found["m"]


def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return _library().causal_mask(T)


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    return _library().padding_mask(lengths.long(), T)  # its range check needs a wide integer
