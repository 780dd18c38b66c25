# expect: loses masks -- padding_mask sizes its last axis by lengths.max() instead of T, so a batch whose longest sequence is shorter than T gets a (B, 1, max_len) mask; spec: "returns a boolean (B, 1, T) tensor that is True where key position j is a real token (j < lengths[b])"
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    i = torch.arange(T)
    return i[:, None] >= i[None, :]


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    positions = torch.arange(int(lengths.max()))  # the padded length of the batch
    return (positions[None, :] < lengths[:, None])[:, None, :]
