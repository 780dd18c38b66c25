# expect: full marks -- flattens the batch, rolls the flat ids by -1 so that flat position n is paired with token n + 1, takes every cross-entropy, and drops each row's last position before the mean: those are exactly the positions whose rolled target crossed into the next row (or wrapped around), so what remains is every (b, t <= T-2) with target idx[b, t+1], averaged over B(T-1); reshape works on any strides
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    B, T, V = logits.shape
    targets = torch.roll(idx.reshape(-1), shifts=-1)
    per_token = F.cross_entropy(logits.reshape(B * T, V), targets, reduction="none").reshape(B, T)
    return per_token[:, :-1].mean()
