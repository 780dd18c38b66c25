# expect: loses text_infilling -- drops the spans of length 0 (no <mask> inserted for them): the number of masks and where they go no longer follow the rule; with poisson_lambda=0.5 (most lengths are 0) the zero-length masks of the reference never appear
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    g = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1].tolist()
    m = len(inner)
    num_to_mask = math.ceil(m * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths, total = [], 0
    while total < num_to_mask:
        L = int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=g))
        if L == 0:
            continue  # an empty span removes nothing
        lengths.append(min(L, num_to_mask - total))
        total += lengths[-1]
    K = len(lengths)
    places = set(torch.randperm(m - num_to_mask + K, generator=g)[:K].tolist())
    out, i, spans = [int(tokens[0])], 0, iter(lengths)
    for place in range(m - num_to_mask + K):
        if place in places:
            out.append(mask_id)
            i += next(spans)
        else:
            out.append(inner[i])
            i += 1
    out.append(int(tokens[-1]))
    return torch.tensor(out, dtype=torch.long)
