# expect: full marks -- the span lengths are drawn from the seeded generator in batches (torch.poisson on a vector of num_to_mask + 1 rates, more batches while the sum falls short), then read in order up to the first whose running sum reaches num_to_mask, the last one cut: the draws are i.i.d. Poisson(lambda), so the lengths have exactly the law of drawing one at a time (the draws left over are never used); places by randperm of m - num_to_mask + K, spans in the order drawn, one mask_id each, BOS and EOS kept; a new tensor even when nothing is masked
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    body = tokens[1:-1].tolist()
    m = len(body)
    budget = math.ceil(m * mask_ratio)
    if budget == 0:
        return tokens.clone()
    draws = torch.empty(0)
    while draws.sum() < budget:
        draws = torch.cat([draws, torch.poisson(torch.full((budget + 1,), float(poisson_lambda)), generator=generator)])
    running = draws.cumsum(0)
    K = int((running < budget).sum()) + 1  # the first draw whose running sum reaches the budget
    spans = [int(x) for x in draws[:K].tolist()]
    spans[-1] = budget - sum(spans[:-1])
    places = m - budget + K
    is_span = torch.zeros(places, dtype=torch.bool)
    is_span[torch.randperm(places, generator=generator)[:K]] = True
    out, i, next_span = [tokens[0].item()], 0, iter(spans)
    for span in is_span.tolist():
        if span:
            out.append(mask_id)
            i += next(next_span)
        else:
            out.append(body[i])
            i += 1
    out.append(tokens[-1].item())
    return torch.tensor(out, dtype=torch.long)
