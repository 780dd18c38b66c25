# expect: loses generate -- nanoGPT-style crop of the context, idx[:, -block_size:], with the block size taken as the prompt's length: from the second new token on, the model no longer sees the start of the sequence (toy_lm's logits depend on the whole prefix); the visible tests check only the first new token and seed replay; breaks "At each step run the model on the whole sequence so far"; input: W, U = random_lm(6), prompt = [[1, 2], [3, 4]], 5 tokens, temperature 0 -> row 0 becomes [1, 2, 1, 4, 5, 2, 1] (spec: [1, 2, 1, 0, 0, 0, 0])
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    block_size = idx.shape[1]  # the model's context
    for _ in range(max_new_tokens):
        logits = toy_lm(idx[:, -block_size:], W, U)[:, -1]
        if temperature == 0:
            nxt = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            nxt = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, nxt], dim=1)
    return idx
