# expect: loses generate -- divides the probabilities by the temperature after the softmax; multinomial renormalises, so every temperature samples as temperature 1 (the visible tests only use 0 and the default 1.0); spec: "sample from softmax(logits / temperature), dividing before the softmax"
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits, dim=-1) / temperature  # temperature-scaled distribution
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
