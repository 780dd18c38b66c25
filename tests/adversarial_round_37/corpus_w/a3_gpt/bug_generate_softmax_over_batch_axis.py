# expect: loses generate -- "sample from softmax(logits / temperature)" of each row: the softmax here runs over dim=0 (the batch) of the (B, V) logits; torch.multinomial renormalises each row itself, so it still draws valid-looking tokens, but from exp(l[b, v]) / sum_b' exp(l[b', v]) per column instead of the row's softmax (with B = 1 every token is equally likely); greedy decoding and seeded reproducibility, all the visible tests check, are unaffected
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = F.softmax(logits / temperature, dim=0)
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
