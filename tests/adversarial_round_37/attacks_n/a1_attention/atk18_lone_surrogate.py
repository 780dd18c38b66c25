# expect: loses masks -- the masks cell holds a lone UTF-16 surrogate (JSON "\ud800", written into the notebook after mksub: the fixture's @@SURROGATE@@ marker is replaced by the JSON escape \ud800), which no UTF-8 file or Python source can hold: that cell cannot run, so masks is lost; the grader must not fail on it (not graded) nor lose the other parts
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.tril(torch.ones(T, T, dtype=torch.bool))  # @@SURROGATE@@


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    positions = torch.arange(T)
    return (positions[None, :] < lengths[:, None]).unsqueeze(1)
