# expect: loses text_infilling -- passes poisson_lambda to torch.tensor as it is: an int lambda (poisson_lambda=3) makes a long tensor and torch.poisson raises; text_infilling(tokens, 0.31, 3, poisson_lambda=3) errors where the reference works
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    body = tokens[1:-1]
    num_to_mask = math.ceil(len(body) * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    rate = torch.tensor(poisson_lambda)
    spans = []
    while sum(spans) < num_to_mask:
        spans.append(int(torch.poisson(rate, generator=generator).item()))
    spans[-1] -= sum(spans) - num_to_mask
    n_kept = len(body) - num_to_mask
    is_span = torch.zeros(n_kept + len(spans), dtype=torch.bool)
    is_span[torch.randperm(n_kept + len(spans), generator=generator)[: len(spans)]] = True
    pieces, j, s = [tokens[:1]], 0, 0
    for flag in is_span.tolist():
        if flag:
            pieces.append(torch.tensor([mask_id]))
            j += spans[s]
            s += 1
        else:
            pieces.append(body[j : j + 1])
            j += 1
    pieces.append(tokens[-1:])
    return torch.cat(pieces)
