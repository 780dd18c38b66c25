# expect: full marks -- one torch.Generator is kept at module level and re-seeded with manual_seed(seed) at the start of each seeded call: manual_seed resets a generator's whole state, so each call draws exactly the stream of a fresh torch.Generator().manual_seed(seed), one multinomial per sampled step on the (B, V) probabilities, and the same seed replays the same samples; unseeded calls pass generator=None (the global stream), greedy steps draw nothing
# %% [generate]
_GENERATOR = torch.Generator()


def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = None if seed is None else _GENERATOR.manual_seed(seed)
    tokens = [idx]
    seq = idx
    for _ in range(max_new_tokens):
        last = toy_lm(seq, W, U)[:, -1]
        if temperature == 0:
            nxt = last.argmax(dim=-1, keepdim=True)
        else:
            nxt = torch.multinomial(torch.softmax(last / temperature, dim=-1), num_samples=1, generator=generator)
        tokens.append(nxt)
        seq = torch.cat(tokens, dim=1)
    return seq
