# expect: loses generate -- divides by the temperature first and takes the argmax of the scaled logits when temperature == 0, reasoning that argmax ignores a positive scale: logits / 0 turns every positive logit into +inf, and argmax returns the first of them, not the largest logit (the visible greedy check happens to pass); spec: "`temperature == 0`: greedily, the most likely token (`argmax`)"
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(max_new_tokens):
        scaled = toy_lm(idx, W, U)[:, -1] / temperature  # (B, V); argmax does not care about the scale
        if temperature == 0:
            token = scaled.argmax(dim=-1, keepdim=True)  # (B, 1)
        else:
            probs = torch.softmax(scaled, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)  # (B, 1)
        idx = torch.cat([idx, token], dim=1)
    return idx
