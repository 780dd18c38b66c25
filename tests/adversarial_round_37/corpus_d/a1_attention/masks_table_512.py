# expect: loses masks -- both masks are sliced from tables built for 512 positions, so any T > 512 gives a (512, 512) causal mask and a padding mask of the wrong width; spec: "`causal_mask(T)` returns a boolean `(T, T)` tensor" and "returns a boolean `(B, 1, T)` tensor"
# %% [masks]
_MAX_T = 512  # BERT's and GPT-1's context
_TRIL = torch.tril(torch.ones(_MAX_T, _MAX_T, dtype=torch.bool))
_POSITIONS = torch.arange(_MAX_T)


def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return _TRIL[:T, :T].clone()


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    return (_POSITIONS[:T][None, :] < lengths[:, None]).unsqueeze(1)
