# expect: loses generate -- "At each step run the model on the whole sequence so far, take the logits of the **last** position": the position is fixed before the loop, `T = idx.shape[1]`, and every step reads `toy_lm(idx, W, U)[:, T - 1]`, the prompt's last position, whose logits never change as tokens are appended; the first new token is right (the visible greedy test checks only it, and the seeded test only that two runs agree), every later token is drawn from the first step's distribution (greedy decoding repeats one token)
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    T = idx.shape[1]
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, T - 1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            token = torch.multinomial(torch.softmax(logits / temperature, dim=-1), num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
