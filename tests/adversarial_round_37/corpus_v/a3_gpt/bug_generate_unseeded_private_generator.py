# expect: loses generate -- with seed=None the spec's generator is None (torch's global generator, which each call advances); the answer makes a private Generator seeded with torch.initial_seed() instead: right after torch.manual_seed(s) its samples replay the global generator's exactly, but the global state never moves, so a second unseeded call repeats the first call's tokens (torch.manual_seed(3); generate x2 -> identical rows, the key's differ) and code drawing after it sees an unmoved generator
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    # a generator of our own, so that sampling does not disturb anyone else's random numbers
    generator = torch.Generator().manual_seed(torch.initial_seed() if seed is None else seed)
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
