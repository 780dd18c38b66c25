# expect: loses generate -- the step draws its sample before it looks at the temperature (one code path), and temperature 0 then takes the argmax instead: the tokens are right, but an unseeded greedy call advances torch's global generator by one multinomial draw per step (the spec's greedy decoding draws nothing: temperature 0, seed None -> torch.rand() after the call differs from the key's); seeded calls and every temperature > 0 agree exactly
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        scaled = logits / temperature if temperature != 0 else logits
        sample = torch.multinomial(torch.softmax(scaled, dim=-1), num_samples=1, generator=generator)
        token = logits.argmax(dim=-1, keepdim=True) if temperature == 0 else sample
        idx = torch.cat([idx, token], dim=1)
    return idx
