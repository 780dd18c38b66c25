# expect: loses text_infilling -- drops the Poisson draws of length 0 (fairseq inserts their masks separately; here they are simply lost), so no mask is ever inserted without removing a token and K is too small; spec: "Lengths of 0 stay (each will insert a `<mask>`)"
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]
    m = len(inner)
    num_to_mask = math.ceil(m * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths, total = [], 0
    while total < num_to_mask:
        length = int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator))
        if length == 0:
            continue  # an empty span masks nothing
        lengths.append(min(length, num_to_mask - total))
        total += lengths[-1]
    K = len(lengths)
    places = torch.randperm(m - num_to_mask + K, generator=generator)[:K].sort().values.tolist()
    out, src, span = [tokens[0].item()], 0, 0
    for place in range(m - num_to_mask + K):
        if span < K and place == places[span]:
            out.append(mask_id)
            src += lengths[span]
            span += 1
        else:
            out.append(inner[src].item())
            src += 1
    out.append(tokens[-1].item())
    return torch.tensor(out, dtype=torch.long)
