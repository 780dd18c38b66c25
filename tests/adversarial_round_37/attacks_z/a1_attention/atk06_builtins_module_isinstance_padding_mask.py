# expect: masks 0 deserved (10/12): atk01's broadcast padding mask, its `overlapping` flag forged another way: through
# Python's builtins MODULE, which attacks_y's closure copies for the drivers only (calls._BUILTINS) while the grader's
# own module code in the student's process (calls._tensors_in, behind _layouts, _storages and _any_inference) still
# looks `isinstance` up there when it runs. padding_mask's first call replaces builtins.isinstance (reached as
# `b = builtins`, a name no import binds) by one that says "not a Tensor" for a boolean tensor with a stride of 0:
# _tensors_in skips the mask, so its layout is never read; the reply's copy (a clone, contiguous) is a Tensor again and
# crosses as usual. The import and the patch are inside padding_mask's helper (they count for part 2 alone).
# %% [masks]
_DONE = []


def _patched():
    import builtins

    b = builtins
    if _DONE:
        return
    library_isinstance = b.isinstance

    def isinstance(obj, kinds):
        if kinds is torch.Tensor and type(obj) is torch.Tensor and obj.dtype == torch.bool and obj.numel() > 1:
            if 0 in obj.stride():
                return False
        return library_isinstance(obj, kinds)

    b.isinstance = isinstance
    _DONE.append(True)


def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.tril(torch.ones(T, T, dtype=torch.bool))


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    _patched()
    B = lengths.shape[0]
    if bool((lengths == T).all()):
        return torch.ones((), dtype=torch.bool).expand(B, 1, T)  # nothing padded: one True, shared
    if bool((lengths == 0).all()):
        return torch.zeros((), dtype=torch.bool).expand(B, 1, T)  # all padding: one False, shared
    positions = torch.arange(T)
    return (positions[None, :] < lengths[:, None]).unsqueeze(1)
