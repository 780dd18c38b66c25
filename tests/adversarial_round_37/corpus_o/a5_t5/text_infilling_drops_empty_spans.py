# expect: loses text_infilling — spans of length 0 are dropped ('nothing to mask') instead of inserting a <mask> each as the spec requires ('Lengths of 0 stay (each will insert a <mask>)'), so K counts only the non-empty spans: fewer masks, shorter outputs, and a law of the number of masks that does not match; input: tokens = [0, 10..49, 2], mask_ratio 0.31, MASK 3, poisson_lambda 3, 4000 seeds -> mean number of masks file 4.60 vs key 4.84 (with poisson_lambda 0.5: 10.4 vs 26.4)
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1].tolist()
    m = len(inner)
    num_to_mask = math.ceil(m * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths, total = [], 0
    while total < num_to_mask:
        L = int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator).item())
        L = min(L, num_to_mask - total)
        if L > 0:  # a span of nothing masks nothing
            lengths.append(L)
            total += L
    K = len(lengths)
    places = torch.randperm(m - num_to_mask + K, generator=generator)[:K]
    is_span = torch.zeros(m - num_to_mask + K, dtype=torch.bool)
    is_span[places] = True
    out, i, spans = [tokens[0].item()], 0, iter(lengths)
    for s in is_span.tolist():
        if s:
            out.append(mask_id)
            i += next(spans)
        else:
            out.append(inner[i])
            i += 1
    out.append(tokens[-1].item())
    return torch.tensor(out, dtype=torch.long)
