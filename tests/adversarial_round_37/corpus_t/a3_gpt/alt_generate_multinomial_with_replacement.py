# expect: full marks -- samples with torch.multinomial(probs, 1, replacement=True, generator=generator): for one sample torch takes the same path as without replacement (the exponential-race draw), so every sample is the one the spec's exact call draws from the same generator state; the spec's call text is not followed to the letter, its draws are
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = None if seed is None else torch.Generator().manual_seed(seed)
    rows = [idx]
    for _ in range(max_new_tokens):
        seq = torch.cat(rows, dim=1) if len(rows) > 1 else idx
        logits = toy_lm(seq, W, U)[:, -1]  # (B, V)
        if temperature == 0:
            token = torch.argmax(logits, dim=-1).unsqueeze(-1)
        else:
            probs = F.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, 1, replacement=True, generator=generator)  # one draw per row
        rows.append(token)
    return torch.cat(rows, dim=1)
