# expect: loses generate (samples by the Gumbel-max trick, argmax(logits / T + Gumbel noise) with uniforms from the seeded generator: the same law as softmax sampling but not the spec's torch.multinomial(probs, 1, generator=generator) call, so the tests' replay from the seed differs: V 50, prompt (4, 3), seed 3, 6 tokens: the printed rows differ; greedy (temperature 0) agrees, and the same seed twice gives the same output)
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]  # (B, V)
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            u = torch.rand(logits.shape, generator=generator).clamp_min(1e-20)
            gumbel = -torch.log(-torch.log(u))  # argmax(z + Gumbel) is distributed as softmax(z)
            token = (logits / temperature + gumbel).argmax(dim=-1, keepdim=True)
        idx = torch.cat([idx, token], dim=1)
    return idx
