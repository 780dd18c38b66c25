# expect: loses generate -- samples once per distinct history (rows with identical prefixes share one draw, by torch.unique), so identical rows get identical continuations and the draws of later rows shift; "torch.multinomial(probs, num_samples=1, generator=generator) (exactly this call, once per step, on the (B, V) probabilities)"; random_lm(6), prompt [[1, 2], [1, 2], [3, 4]], 8 tokens, seed 0: key [[1,2,2,1,5,4,2,1,5,2],[1,2,1,0,5,2,1,4,1,4],[3,4,5,2,2,2,2,1,4,4]], this answer [[1,2,2,1,5,5,3,1,2,0],[1,2,2,1,5,5,3,1,2,0],[3,4,5,2,2,1,4,2,1,3]]; prompt zeros(2, 1), 6 tokens, 200 seeds: rows identical key 1/200, this answer 200/200; distinct prompts: equal to the key
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]  # (B, V): the next token's logits
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            histories, group = torch.unique(idx, dim=0, return_inverse=True)
            if len(histories) == len(idx):  # every row its own history: one draw per row
                token = torch.multinomial(probs, num_samples=1, generator=generator)
            else:  # rows with the same history have the same distribution: sample each history once
                B = idx.shape[0]
                first = torch.full((len(histories),), B).scatter_reduce(0, group, torch.arange(B), "amin")
                order = first.argsort()  # histories in the order they first appear
                drawn = torch.multinomial(probs[first[order]], num_samples=1, generator=generator)
                token = drawn[order.argsort()[group]]
        idx = torch.cat([idx, token], dim=1)
    return idx
