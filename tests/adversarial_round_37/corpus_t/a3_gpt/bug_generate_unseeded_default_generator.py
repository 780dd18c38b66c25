# expect: loses generate  -- the generator is always made, torch.Generator(), and seeded only when a seed is given, so seed=None samples from a fresh generator's fixed default seed: every unseeded call draws the same tokens and the global generator is never used; part 5 says generator = None when no seed is given (sampling from torch's global generator); torch.manual_seed(s) then generate(prompt, 8, W, U) with seed=None: the key's samples follow s (and differ between s = 0 and 1), the answer's are the same whatever s (seeded calls and temperature 0: equal)
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator()  # one generator for the whole loop
    if seed is not None:
        generator.manual_seed(seed)  # the same seed replays the same samples
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]  # (B, V): the next token's logits
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
