# expect: loses generate -- after the first step it runs the model on the newest token alone (as if there were a cache), but toy_lm's logits depend on the whole prefix (its cumulative sum): from the second new token on, the tokens differ (e.g. greedy, V=6, prompt [[1, 2], [3, 4]], 5 tokens)
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    context = idx  # the first step reads the whole prompt, later steps only what is new
    for _ in range(max_new_tokens):
        logits = toy_lm(context, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
        context = token
    return idx
