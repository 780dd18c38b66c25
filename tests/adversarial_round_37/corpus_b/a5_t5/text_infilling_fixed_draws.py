# expect: loses text_infilling -- draws a fixed batch of 128 Poisson lengths and, if they do not reach num_to_mask (long texts), removes fewer tokens than num_to_mask; spec: "Draw lengths one at a time ... until their sum reaches at least num_to_mask" and "num_to_mask = ceil(m * mask_ratio) of them are removed"
# %% [text_infilling]
MAX_SPANS = 128


def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    draws = torch.poisson(torch.full((MAX_SPANS,), float(poisson_lambda)), generator=generator).long()  # vectorised
    total = torch.cumsum(draws, 0)
    K = int((total < num_to_mask).sum()) + 1  # the first K lengths reach the budget
    K = min(K, MAX_SPANS)
    lengths = draws[:K].clone()
    lengths[-1] -= max(int(total[K - 1]) - num_to_mask, 0)
    removed = int(lengths.sum())
    n_places = len(inner) - removed + K
    is_span = torch.zeros(n_places, dtype=torch.bool)
    is_span[torch.randperm(n_places, generator=generator)[:K]] = True
    out, pos, spans = [tokens[:1]], 0, iter(lengths.tolist())
    for span in is_span.tolist():
        if span:
            out.append(tokens.new_tensor([mask_id]))
            pos += next(spans)
        else:
            out.append(inner[pos:pos + 1])
            pos += 1
    out.append(tokens[-1:])
    return torch.cat(out)
