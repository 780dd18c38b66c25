# expect: loses generate -- crops the model's input to the last 8 tokens (nanoGPT's block_size habit); toy_lm's logits depend on the whole prefix, so greedy generate(randint(0, 6, (2, 6)), 6, W, U, temperature=0) goes wrong once the sequence passes 8 tokens
# %% [generate]
BLOCK_SIZE = 8  # the model's context length


def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = None if seed is None else torch.Generator().manual_seed(seed)
    for _ in range(max_new_tokens):
        context = idx[:, -BLOCK_SIZE:]  # never feed the model more than its context
        logits = toy_lm(context, W, U)[:, -1, :]
        if temperature == 0:
            token = torch.argmax(logits, dim=-1, keepdim=True)
        else:
            token = torch.multinomial(F.softmax(logits / temperature, dim=-1), num_samples=1, generator=generator)
        idx = torch.cat((idx, token), dim=1)
    return idx
