# expect: loses generate -- crops the context to the last 1024 tokens (GPT-2's block size) before running the model; spec: "At each step run the model on the whole sequence so far"
# %% [generate]
BLOCK_SIZE = 1024


def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(max_new_tokens):
        context = idx[:, -BLOCK_SIZE:]  # the model sees at most a block
        logits = toy_lm(context, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
