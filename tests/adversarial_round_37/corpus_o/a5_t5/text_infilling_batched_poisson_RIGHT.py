# expect: full marks — text_infilling: draws the Poisson lengths in batches of 16 (torch.poisson on a vector, the same generator) and uses as many as needed; places as the first K of a randperm; output built by index arithmetic on a kept-token tensor (the law of every draw is the spec's: i.i.d. Poisson lengths, uniformly random places)
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    g = torch.Generator().manual_seed(seed)
    m = tokens.numel() - 2
    budget = math.ceil(m * mask_ratio)
    if budget == 0:
        return tokens.clone()
    lengths = []
    while sum(lengths) < budget:
        batch = torch.poisson(torch.full((16,), float(poisson_lambda)), generator=g).long().tolist()
        for L in batch:
            lengths.append(L)
            if sum(lengths) >= budget:
                break
    lengths[-1] -= sum(lengths) - budget
    K = len(lengths)
    n_places = m - budget + K
    span_at = torch.zeros(n_places, dtype=torch.bool)
    span_at[torch.randperm(n_places, generator=g)[:K]] = True
    # how many original tokens each place consumes: 1 for a kept token, the span's length for a span
    consume = torch.ones(n_places, dtype=torch.long)
    consume[span_at] = torch.tensor(lengths, dtype=torch.long)
    start = torch.cumsum(consume, 0) - consume  # index into the inner tokens
    inner = tokens[1:-1]
    body = torch.where(span_at, torch.full_like(start, mask_id), inner[start.clamp(max=max(m - 1, 0))])
    return torch.cat([tokens[:1], body, tokens[-1:]])
