# expect: loses text_infilling -- spans of length 0 are thrown away before placing, so they never insert a <mask> (the spec keeps them): tokens = [0] + list(range(10, 50)) + [2], mask_ratio=0.31, seed 0..20: some seeds give fewer masks than the reference, and the output length len(tokens) - num_to_mask + K is wrong
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    body = tokens[1:-1].tolist()
    m = len(body)
    num_to_mask = math.ceil(m * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths, total = [], 0
    while total < num_to_mask:
        length = int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator).item())
        lengths.append(length)
        total += length
    lengths[-1] -= total - num_to_mask
    lengths = [length for length in lengths if length > 0]  # an empty span removes nothing
    n_places = m - num_to_mask + len(lengths)
    span_places = set(torch.randperm(n_places, generator=generator)[: len(lengths)].tolist())
    out, i, next_span = [int(tokens[0])], 0, 0
    for place in range(n_places):
        if place in span_places:
            out.append(mask_id)
            i += lengths[next_span]
            next_span += 1
        else:
            out.append(body[i])
            i += 1
    out.append(int(tokens[-1]))
    return torch.tensor(out, dtype=torch.long)
