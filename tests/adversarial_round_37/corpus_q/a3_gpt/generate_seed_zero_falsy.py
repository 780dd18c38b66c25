# expect: loses generate -- `if seed:` makes the generator, so seed=0 (falsy) is treated as no seed and samples from torch's global stream; "generator = torch.Generator().manual_seed(seed) is made once, before the loop, when a seed is given"; random_lm(6), prompt [[1,2],[3,4]], 8 tokens, seed=0: key returns the same tokens whatever the global state and leaves it alone; this answer's tokens change with torch.manual_seed(1) / (2) before the call and it advances the global generator
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed else None
    out = idx
    for _ in range(max_new_tokens):
        last = toy_lm(out, W, U)[:, -1, :]
        if temperature == 0:
            nxt = last.argmax(dim=-1, keepdim=True)
        else:
            nxt = torch.multinomial(torch.softmax(last / temperature, dim=-1), num_samples=1, generator=generator)
        out = torch.cat([out, nxt], dim=1)
    return out
