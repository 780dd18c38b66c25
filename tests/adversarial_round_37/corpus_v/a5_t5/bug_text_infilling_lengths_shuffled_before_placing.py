# expect: loses text_infilling -- the K span lengths are shuffled (randperm of K) before they are placed, where the spec places them in the order drawn: the last length, the one cut to fit the budget, may land anywhere; each call still removes exactly num_to_mask tokens with K masks in uniformly chosen places, the number of spans has the key's law and so do the places; only which length sits at which place differs: 202 tokens, ratio 0.3, lambda 3, 400 seeds -> the rightmost span's mean length 3.32 here, 2.87 in the key (2.86 in a right answer that draws otherwise)
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]
    m = inner.numel()
    num_to_mask = math.ceil(m * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lam = torch.tensor(float(poisson_lambda))
    lengths = []
    while sum(lengths) < num_to_mask:
        lengths.append(int(torch.poisson(lam, generator=generator)))
    lengths[-1] = num_to_mask - sum(lengths[:-1])
    K = len(lengths)
    lengths = [lengths[i] for i in torch.randperm(K, generator=generator).tolist()]  # spans in no particular order
    n_places = m - num_to_mask + K
    at = set(torch.randperm(n_places, generator=generator)[:K].tolist())
    out, pos, nxt = [int(tokens[0])], 0, 0
    for place in range(n_places):
        if place in at:
            out.append(mask_id)
            pos += lengths[nxt]
            nxt += 1
        else:
            out.append(int(inner[pos]))
            pos += 1
    out.append(int(tokens[-1]))
    return torch.tensor(out, dtype=torch.long)
