# expect: loses generate -- makes a fresh generator from the seed at every step, so every step reuses the same uniform draw; spec: "generator = torch.Generator().manual_seed(seed) is made once, before the loop"
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    out = idx
    for _ in range(max_new_tokens):
        logits = toy_lm(out, W, U)[:, -1, :]
        if temperature == 0:
            token = torch.argmax(logits, dim=-1, keepdim=True)
        else:
            generator = None if seed is None else torch.Generator().manual_seed(seed)
            probs = F.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        out = torch.cat((out, token), dim=1)
    return out
