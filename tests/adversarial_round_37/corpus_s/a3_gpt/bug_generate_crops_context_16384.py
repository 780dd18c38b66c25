# expect: loses generate -- nanoGPT's crop of the context to a block size (`idx[:, -BLOCK_SIZE:]`, here 16,384) before each model call; toy_lm's logits depend on the sum of the whole prefix, and the spec says "run the model on the whole sequence so far" with "no fixed limit on its length"; random_lm(6), prompt of 16,385 ones, 3 greedy tokens: key [5, 2, 2], answer [0, 4, 5]; prompt of 16,384 ones: key [0, 0, 0], answer [0, 4, 5] (first token equal, the next ones cropped); every sequence up to 16,384 tokens: equal
# %% [generate]
BLOCK_SIZE = 16384  # the longest context the model is run on


def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(max_new_tokens):
        context = idx if idx.shape[1] <= BLOCK_SIZE else idx[:, -BLOCK_SIZE:]
        logits = toy_lm(context, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
