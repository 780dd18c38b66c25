# expect: loses generate -- applies the temperature after the softmax (probs ** (1/T), left unnormalised): same law in exact arithmetic, but at small temperatures every probability underflows to 0 and multinomial raises
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = None if seed is None else torch.Generator().manual_seed(seed)
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1, :]
        if temperature == 0:
            next_token = torch.argmax(logits, dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits, dim=-1) ** (1.0 / temperature)  # sharpen (T < 1) or flatten (T > 1)
            next_token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, next_token], dim=1)
    return idx
