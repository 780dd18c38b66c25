# expect: loses generate  -- crops the context to the last 64 tokens before each model call (GPT's block_size habit), which changes toy_lm's prefix-sum logits once the sequence is longer than 64; spec: "At each step run the model on the whole sequence so far, take the logits of the last position"
# %% [generate]
BLOCK_SIZE = 64


def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = None if seed is None else torch.Generator().manual_seed(seed)
    for _ in range(max_new_tokens):
        context = idx[:, -BLOCK_SIZE:]  # the model never sees more than its context
        logits = toy_lm(context, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
