# expect: full marks -- the sequence lives in a preallocated (B, T + max_new_tokens) buffer of the prompt's dtype; each step runs toy_lm on the filled prefix (a view), so the logits, the greedy argmax, the division before the softmax and the one multinomial call per step on the (B, V) probabilities are exactly the key's; the buffer is new at every call and nothing is drawn at a greedy step
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    B, T = idx.shape
    out = idx.new_empty(B, T + max_new_tokens)
    out[:, :T] = idx
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for t in range(T, T + max_new_tokens):
        logits = toy_lm(out[:, :t], W, U)[:, -1]
        if temperature == 0:
            out[:, t] = logits.argmax(dim=-1)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            out[:, t] = torch.multinomial(probs, num_samples=1, generator=generator)[:, 0]
    return out
