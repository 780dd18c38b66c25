# expect: loses masks -- both mask functions are course_lib.attention's, imported by code compiled under a file name inside a "/course_lib/" folder, so that the audit hook's walk stops at it and records nothing (held for review: the course's library is refused in every part)
# %% [masks]
def _library():
    name = "noitnetta.bil_esruoc"[::-1]
    found = {}
    shim = "/opt/" + "bil_esruoc"[::-1] + "/shim.py"  # the walk for the course's library stops at its own files
    exec(compile(f"import {name} as m", shim, "exec"), found)
    return found["m"]


def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return _library().causal_mask(T)


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    return _library().padding_mask(lengths.long(), T)  # its range check needs a wide integer
