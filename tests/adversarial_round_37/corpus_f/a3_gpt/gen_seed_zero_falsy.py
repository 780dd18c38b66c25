# expect: loses generate -- tests the seed for truthiness, so seed=0 makes no generator and samples from the global RNG (not reproducible, not replayable); spec: "generator = torch.Generator().manual_seed(seed) is made once, before the loop, when a seed is given (else generator = None)"
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed else None
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
