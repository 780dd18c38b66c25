# expect: full marks -- style: the Poisson lengths drawn in batches of num_to_mask (one torch.poisson call on a filled tensor, again while their sum falls short) and the prefix that reaches the budget kept; places from randperm; the output built by index arithmetic (cumsum) instead of a Python loop
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]
    m = len(inner)
    num_to_mask = math.ceil(m * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    drawn = torch.zeros(0, dtype=torch.long)
    while int(drawn.sum()) < num_to_mask:  # iid Poisson draws, as many as may be needed, in batches
        batch = torch.poisson(torch.full((num_to_mask,), float(poisson_lambda)), generator=generator).long()
        drawn = torch.cat([drawn, batch])
    K = int((drawn.cumsum(0) < num_to_mask).sum()) + 1  # the first prefix whose sum reaches the budget
    lengths = drawn[:K].clone()
    lengths[-1] = num_to_mask - lengths[:-1].sum()
    n_places = m - num_to_mask + K
    is_span = torch.zeros(n_places, dtype=torch.bool)
    is_span[torch.randperm(n_places, generator=generator)[:K]] = True
    width = torch.ones(n_places, dtype=torch.long)  # how many original tokens each place covers
    width[is_span] = lengths
    start = width.cumsum(0) - width  # where each place starts in the inner tokens
    kept = inner[start[~is_span]] if (~is_span).any() else inner[:0]
    body = torch.full((n_places,), mask_id, dtype=torch.long)
    body[~is_span] = kept
    return torch.cat([tokens[:1], body, tokens[-1:]])
