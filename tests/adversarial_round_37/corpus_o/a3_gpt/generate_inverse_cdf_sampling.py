# expect: loses generate — samples by inverse CDF (one torch.rand(B, 1, generator=generator) per step, then searchsorted in the cumulative probabilities) instead of the torch.multinomial(probs, num_samples=1, generator=generator) call the spec prescribes 'exactly', so the draws consume the generator differently and the tokens do not replay (the law of each token is right); input: prompt = [[1, 2], [3, 4]], W, U = random_lm(6), 5 new tokens, seed=1, temperature 1 -> tokens differ from the key's on most seeds
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = None if seed is None else torch.Generator().manual_seed(seed)
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            nxt = logits.argmax(dim=-1, keepdim=True)
        else:
            cdf = torch.softmax(logits / temperature, dim=-1).cumsum(dim=-1)
            u = torch.rand(idx.shape[0], 1, generator=generator) * cdf[:, -1:]
            nxt = torch.searchsorted(cdf, u, right=True).clamp(max=cdf.shape[-1] - 1)
        idx = torch.cat([idx, nxt], dim=1)
    return idx
