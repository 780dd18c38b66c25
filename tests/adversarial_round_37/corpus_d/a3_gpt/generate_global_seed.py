# expect: loses generate -- seeds torch's global RNG with torch.manual_seed(seed) and samples without a generator: the same samples as the spec's generator, but it clobbers the caller's global random state; spec: "with `torch.multinomial(probs, num_samples=1, generator=generator)` (exactly this call ...), where `generator = torch.Generator().manual_seed(seed)` is made once, before the loop"
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    if seed is not None:
        torch.manual_seed(seed)  # reproducible sampling
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            token = torch.multinomial(torch.softmax(logits / temperature, dim=-1), num_samples=1)
        idx = torch.cat([idx, token], dim=1)
    return idx
