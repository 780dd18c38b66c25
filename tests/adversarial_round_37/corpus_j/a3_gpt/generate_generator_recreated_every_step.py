# expect: loses generate -- the seeded generator is created inside the loop, so every step restarts the same random stream: generate(prompt, 5, W, U, seed=1) differs from the reference replay (one generator made before the loop)
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1, :]
        if temperature == 0:
            next_token = torch.argmax(logits, dim=-1, keepdim=True)
        else:
            generator = torch.Generator().manual_seed(seed) if seed is not None else None
            probs = F.softmax(logits / temperature, dim=-1)
            next_token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat((idx, next_token), dim=1)
    return idx
