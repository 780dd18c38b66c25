# expect: loses masks -- padding_mask built with pad_sequence is only max(lengths) wide, not T: when every sequence is shorter than T (e.g. lengths=[2, 1], T=4) the mask is (B, 1, 2), not (B, 1, T)
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.ones(T, T, dtype=torch.bool).tril()


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    rows = [torch.ones(int(n), dtype=torch.bool) for n in lengths]  # one True per real token
    return torch.nn.utils.rnn.pad_sequence(rows, batch_first=True, padding_value=False).unsqueeze(1)
