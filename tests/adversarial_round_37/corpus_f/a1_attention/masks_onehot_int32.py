# expect: loses masks -- builds the padding mask with one_hot, which only accepts int64 indices: an int32 lengths tensor raises; spec: "takes the true lengths of a batch of padded sequences, a (B,) integer tensor"
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.ones(T, T).tril().bool()


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    last = torch.nn.functional.one_hot(lengths, num_classes=T + 1)[:, 1:]  # (B, T): 1 at position lengths[b] - 1
    real = last.flip(-1).cumsum(-1).flip(-1)  # 1 at every position up to it
    return real.bool().unsqueeze(1)
