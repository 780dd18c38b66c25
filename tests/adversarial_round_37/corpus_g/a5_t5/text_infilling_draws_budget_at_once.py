# expect: loses text_infilling -- draws num_to_mask Poisson lengths in one call (thinking no more can be needed); when they sum to less than num_to_mask (zeros) the last is stretched instead of drawing more, so K is capped at num_to_mask
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    m = len(tokens) - 2
    num_to_mask = math.ceil(m * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    draws = torch.poisson(torch.full((num_to_mask,), float(poisson_lambda)), generator=generator).long()
    reached = (draws.cumsum(0) >= num_to_mask).nonzero()
    K = int(reached[0]) + 1 if len(reached) else num_to_mask  # the first draw at which the sum reaches the budget
    lengths = draws[:K].tolist()
    lengths[-1] = num_to_mask - sum(lengths[:-1])
    n_places = m - num_to_mask + K
    is_span = torch.zeros(n_places, dtype=torch.bool)
    is_span[torch.randperm(n_places, generator=generator)[:K]] = True
    out, i, spans = [tokens[0].item()], 1, iter(lengths)
    for span in is_span.tolist():
        if span:
            out.append(mask_id)
            i += next(spans)
        else:
            out.append(tokens[i].item())
            i += 1
    out.append(tokens[-1].item())
    return torch.tensor(out, dtype=torch.long)
