# expect: loses masks — padding_mask takes the mask's width from lengths.max() instead of the argument T, so the shape is (B, 1, max(lengths)) whenever no sequence fills the padded length; breaks 'returns a boolean (B, 1, T) tensor'; input: padding_mask(torch.tensor([2, 3]), 5) -> shape (2, 1, 3), the key gives (2, 1, 5)
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.tril(torch.ones(T, T, dtype=torch.bool))


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    width = int(lengths.max()) if len(lengths) else T  # the longest sequence sets the padded width
    positions = torch.arange(width)
    return (positions[None, :] < lengths[:, None]).unsqueeze(1)
