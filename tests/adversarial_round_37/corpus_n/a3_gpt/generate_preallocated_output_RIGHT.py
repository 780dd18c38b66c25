# expect: full marks -- preallocates the (B, T + max_new_tokens) output, copies the prompt in, and at each step runs toy_lm on the filled prefix out[:, :t] (a non-contiguous view) and writes the new column in place; the generator is made once before the loop when a seed is given, torch.multinomial(probs, num_samples=1, generator=generator) is called exactly once per step on the (B, V) probabilities computed exactly as the key computes them, so every sample replays; same outputs as the key for greedy, float and int temperatures, seeds including 0, B = 1 and several, max_new_tokens = 0
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    B, T = idx.shape
    out = torch.empty(B, T + max_new_tokens, dtype=torch.promote_types(idx.dtype, torch.long))
    out[:, :T] = idx
    generator = None if seed is None else torch.Generator().manual_seed(seed)
    for t in range(T, T + max_new_tokens):
        logits = toy_lm(out[:, :t], W, U)[:, -1]  # (B, V): the last position's logits
        if temperature == 0:
            out[:, t] = logits.argmax(dim=-1)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            out[:, t] = torch.multinomial(probs, num_samples=1, generator=generator)[:, 0]
    return out
