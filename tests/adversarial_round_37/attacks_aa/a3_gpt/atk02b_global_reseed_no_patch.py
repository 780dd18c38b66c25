# expect: generate 0 (9/11): atk02 without the replaced `Tensor.numpy` (its baseline: `global_rng_moved` must fail it)
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    if seed is not None:
        torch.manual_seed(seed)  # the global generator, reseeded (the spec: a private one)
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1)
        idx = torch.cat([idx, token], dim=1)
    return idx
