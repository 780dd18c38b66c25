# expect: loses text_infilling  -- torch.manual_seed(seed) then torch.poisson / torch.randperm from the global generator; spec: "Randomness. As in part 2: one generator seeded with seed, every random number drawn from it" (part 2: "Make one generator, generator = torch.Generator().manual_seed(seed)")
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    torch.manual_seed(seed)
    body = tokens[1:-1].tolist()
    m = len(body)
    num_to_mask = math.ceil(m * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths, total = [], 0
    while total < num_to_mask:
        L = int(torch.poisson(torch.tensor(float(poisson_lambda))).item())
        lengths.append(L)
        total += L
    lengths[-1] -= total - num_to_mask
    K = len(lengths)
    n_places = m - num_to_mask + K
    span_places = set(torch.randperm(n_places)[:K].tolist())
    out, i, spans = [int(tokens[0])], 0, iter(lengths)
    for place in range(n_places):
        if place in span_places:
            out.append(mask_id)
            i += next(spans)
        else:
            out.append(body[i])
            i += 1
    out.append(int(tokens[-1]))
    return torch.tensor(out, dtype=torch.long)
