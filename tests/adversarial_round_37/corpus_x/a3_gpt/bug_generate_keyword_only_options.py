# expect: loses generate -- "Keep the function names and arguments" (the signature `generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None)`): temperature and seed are made keyword-only (`*,` before them, to avoid passing a seed where a temperature is meant); the visible tests pass both by keyword and every such call is right, but a positional call, generate(prompt, 5, W, U, 0.0) or generate(prompt, 5, W, U, 1.0, 3), raises TypeError
# %% [generate]
def generate(idx, max_new_tokens, W, U, *, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
