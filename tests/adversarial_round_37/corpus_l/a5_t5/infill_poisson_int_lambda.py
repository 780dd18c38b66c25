# expect: loses text_infilling -- the span lengths are drawn with torch.poisson(torch.tensor(poisson_lambda), ...) without float(): for the default 3.0 that is a float tensor, but poisson_lambda given as a whole number makes an int64 tensor, which torch.poisson does not accept; breaks "poisson_lambda also given as a whole number (int)" and the stated call "torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator)"; input: text_infilling(torch.tensor([0] + list(range(10, 50)) + [2]), 0.31, 3, poisson_lambda=3, seed=0) -> RuntimeError (spec: the same output as with 3.0)
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    rate = torch.tensor(poisson_lambda)
    lengths = []
    while sum(lengths) < num_to_mask:
        lengths.append(int(torch.poisson(rate, generator=generator)))
    lengths[-1] = num_to_mask - sum(lengths[:-1])
    n_places = len(inner) - num_to_mask + len(lengths)
    is_span = torch.zeros(n_places, dtype=torch.bool)
    is_span[torch.randperm(n_places, generator=generator)[: len(lengths)]] = True
    out, position, spans = [tokens[:1]], 0, iter(lengths)
    for span in is_span.tolist():
        if span:
            out.append(tokens.new_tensor([mask_id]))
            position += next(spans)
        else:
            out.append(inner[position : position + 1])
            position += 1
    out.append(tokens[-1:])
    return torch.cat(out)
