# expect: loses generate — recognises greedy decoding only when temperature is the float 0.0 (isinstance(temperature, float)), so temperature given as the int 0 (allowed: 'temperature also given as a whole number') divides the logits by 0 and samples from NaN probabilities (RuntimeError), where the key decodes greedily; input: generate(tensor([[1, 2]]), 3, *random_lm(6), temperature=0) -> file raises, key returns the argmax tokens
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    greedy = isinstance(temperature, float) and temperature == 0.0
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    out = idx
    for _ in range(max_new_tokens):
        logits = toy_lm(out, W, U)[:, -1]
        if greedy:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            token = torch.multinomial(torch.softmax(logits / temperature, dim=-1), num_samples=1, generator=generator)
        out = torch.cat([out, token], dim=1)
    return out
