# expect: loses generate -- applies the temperature to the probabilities (softmax(logits) ** (1 / temperature), which multinomial renormalises) instead of dividing the logits before the softmax: the same law in exact arithmetic, but for a small temperature every power underflows to 0 in float32 and torch.multinomial raises; breaks 'sample from softmax(logits / temperature), dividing before the softmax'; input: W, U = random_lm(6), prompt [[1,2],[3,4]], generate(prompt, 5, W, U, temperature=0.001, seed=0) -> key returns the tokens, this raises RuntimeError (probability tensor sums to 0)
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]  # (B, V): the next token's logits
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)  # (B, 1)
        else:
            probs = torch.softmax(logits, dim=-1) ** (1 / temperature)  # sharpen (multinomial renormalises)
            token = torch.multinomial(probs, num_samples=1, generator=generator)  # (B, 1)
        idx = torch.cat([idx, token], dim=1)
    return idx
