# expect: loses text_infilling -- drops the Poisson lengths of 0, so no <mask> is ever inserted without removing a token (K is too small); spec: "Lengths of 0 stay (each will insert a <mask>)"
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1].tolist()
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths, total = [], 0
    while total < num_to_mask:
        L = int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator))
        if L == 0:
            continue  # an empty span masks nothing
        L = min(L, num_to_mask - total)
        lengths.append(L)
        total += L
    K = len(lengths)
    n_places = len(inner) - num_to_mask + K
    span_places = set(torch.randperm(n_places, generator=generator)[:K].tolist())
    out, pos, j = [int(tokens[0])], 0, 0
    for place in range(n_places):
        if place in span_places:
            out.append(mask_id)
            pos += lengths[j]
            j += 1
        else:
            out.append(inner[pos])
            pos += 1
    out.append(int(tokens[-1]))
    return torch.tensor(out)
