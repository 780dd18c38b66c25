# expect: loses generate -- tests `if seed:` instead of `seed is not None`, so seed=0 makes no generator and samples from the global RNG: not replayable from seed 0, and it advances torch's global random state; breaks 'generator = torch.Generator().manual_seed(seed) is made once ... when a seed is given (else generator = None)' and 'leaves torch's global random state alone'; input: generate(prompt, 5, W, U, seed=0) with random_lm(6) -> the key gives the same tokens whatever torch.manual_seed was set before; this one's tokens change with the global seed
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed else None
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]  # (B, V): the next token's logits
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)  # (B, 1)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)  # (B, 1)
        idx = torch.cat([idx, token], dim=1)
    return idx
