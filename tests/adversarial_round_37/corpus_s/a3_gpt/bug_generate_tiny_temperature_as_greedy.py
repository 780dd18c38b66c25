# expect: loses generate -- a numerical guard that decodes greedily whenever `temperature < 1e-4` (to avoid dividing by a tiny number), where the spec samples at every temperature but 0 ("temperature == 0: greedily; otherwise: sample from softmax(logits / temperature) with torch.multinomial ..., once per step"); W = U = zeros(6, 6) (every logit tied), prompt [[1, 2]], 20 new tokens, temperature 1e-5, seed 0: key [2, 5, 5, 4, 0, 3, ...] (samples among the tied tokens), answer [0] * 20; random_lm(6) at temperatures 0, 0.0, 1e-4, 0.001, 0.7, 1 on 20 seeds: equal
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    greedy = temperature < 1e-4  # dividing by a temperature this small is greedy anyway
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if greedy:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            token = torch.multinomial(torch.softmax(logits / temperature, dim=-1), num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
