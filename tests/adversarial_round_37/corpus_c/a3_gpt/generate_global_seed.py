# expect: loses generate -- reseeds torch's global generator (torch.manual_seed) and samples from it, instead of a generator of its own; spec: "where generator = torch.Generator().manual_seed(seed) is made once, before the loop ... (exactly this call ... generator=generator)"
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    if seed is not None:
        torch.manual_seed(seed)  # reproducible samples
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1)
        idx = torch.cat([idx, token], dim=1)
    return idx
