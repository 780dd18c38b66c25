# expect: loses generate -- creates torch.Generator().manual_seed(seed) inside the loop, afresh at every step, so every step draws the same first uniform number(s) of the stream (the tokens of a row are strongly correlated across steps) and the samples are not the replay of one generator made before the loop; the same seed still gives the same output, which is all the visible tests check; breaks 'where generator = torch.Generator().manual_seed(seed) is made once, before the loop ... The tests replay your samples from the same seed'; input: generate(tensor([[1, 2], [3, 4]]), 8, *random_lm(6), seed=3) -> differs from the key's output
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    for _ in range(max_new_tokens):
        generator = torch.Generator().manual_seed(seed) if seed is not None else None  # the step's sampler
        logits = toy_lm(idx, W, U)[:, -1]  # (B, V)
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
