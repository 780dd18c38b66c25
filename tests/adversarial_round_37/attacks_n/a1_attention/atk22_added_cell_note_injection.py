# expect: loses nothing -- the key's answers, plus (added after mksub, see below) a code cell after the last test cell, which grading drops with a note; its first line and its cell id carry ANSI escapes, CR, a forged "total 12/12" line and a bidi override: the note may name the cell but must not print any of it raw or as a line of its own. Post-processing: the notebook gets one more code cell, id "x\u001b[2J", source "\u001b[31m# dropped\r\ntotal 99/12\u202e\n  sdpa 9/4\nprint(1)" (see NOTES.md)
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.tril(torch.ones(T, T, dtype=torch.bool))


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    positions = torch.arange(T)
    return (positions[None, :] < lengths[:, None]).unsqueeze(1)
