# expect: loses generate -- softmax over dim=0, the batch axis, of the (B, V) logits; torch.multinomial silently renormalises each row, so it samples, but from the wrong law (for B = 1 every probability is 1: uniform over the vocabulary); greedy decoding and seed replay, all the visible tests check, are unaffected; breaks "sample from softmax(logits / temperature)" (over the vocabulary); input: B = 1, W = zeros(6, 6) with W[0, 3] = 50, U = zeros(6, 6), prompt [[0]], one token, seeds 0..199 -> token 3 about 1/6 of the time (spec: always)
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = None if seed is None else torch.Generator().manual_seed(seed)
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1, :]
        if temperature == 0:
            nxt = torch.argmax(logits, dim=-1).unsqueeze(-1)
        else:
            probs = F.softmax(logits / temperature, dim=0)
            nxt = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat((idx, nxt), dim=1)
    return idx
