# expect: loses lm_loss -- flattens logits with .view(B * T, V), which raises on a (B, T, V) tensor whose B and T axes cannot be merged without a copy (e.g. logits = full[:, :T] of a longer run with B >= 2, or a (B, V, T) tensor transposed): the spec allows any (B, T, V) tensor
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    B, T, V = logits.shape
    flat = logits.view(B * T, V)  # every position of every row
    targets = idx.roll(-1, dims=1).reshape(B * T)  # position t predicts token t + 1 (the last column is junk)
    has_target = (torch.arange(T) < T - 1).repeat(B)  # drop each row's last position
    return F.cross_entropy(flat[has_target], targets[has_target])
