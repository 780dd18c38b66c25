# expect: loses generate -- feeds the model only the last 64 tokens (a GPT-style block size), so once the sequence is longer the logits differ from toy_lm on the whole prefix; spec: "At each step run the model on the whole sequence so far, take the logits of the last position"
# %% [generate]
BLOCK_SIZE = 64  # the model's context window


def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(max_new_tokens):
        context = idx[:, -BLOCK_SIZE:]  # crop to the context window
        logits = toy_lm(context, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
