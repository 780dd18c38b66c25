# expect: loses generate -- `if seed:` takes seed = 0 for "no seed": generator None, so seed 0 draws from torch's global generator (moving the global random state): right after torch.manual_seed(0), as the notebook's set-up leaves it, the first call even replays Generator().manual_seed(0)'s samples, but a second call with seed=0 gives other tokens ([[1,2,2,1,4,5,2,1],...] against the key's [[1,2,2,1,5,5,3,1],...] with random_lm(6)); every other seed, and temperature 0, agree with the key
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed else None
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
