# expect: loses generate  -- reseeds torch's global RNG with torch.manual_seed(seed) and samples from the global generator (same numbers, but the caller's global RNG state is clobbered and generator= is never used); spec: "with torch.multinomial(probs, num_samples=1, generator=generator) (exactly this call ...), where generator = torch.Generator().manual_seed(seed) is made once, before the loop"
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    if seed is not None:
        torch.manual_seed(seed)  # reproducible sampling
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1, :]
        if temperature == 0:
            nxt = torch.argmax(logits, dim=-1, keepdim=True)
        else:
            probs = F.softmax(logits / temperature, dim=-1)
            nxt = torch.multinomial(probs, num_samples=1)
        idx = torch.cat((idx, nxt), dim=1)
    return idx
