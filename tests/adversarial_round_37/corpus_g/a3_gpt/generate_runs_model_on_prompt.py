# expect: loses generate -- appends to a separate output tensor but keeps running the model on the prompt, so every step after the first predicts from the wrong prefix
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    out = idx
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            token = torch.multinomial(torch.softmax(logits / temperature, dim=-1), num_samples=1, generator=generator)
        out = torch.cat([out, token], dim=1)
    return out
