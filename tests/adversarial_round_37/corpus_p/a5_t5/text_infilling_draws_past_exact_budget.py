# expect: loses text_infilling -- keeps drawing Poisson lengths while their sum is at most num_to_mask (<= instead of <), so when the sum hits num_to_mask exactly it draws one more length, which the cut turns into an extra span of length 0: one more <mask> than the key's rule gives, on those seeds. Every per-call rule holds (BOS/EOS, kept tokens in order, exactly num_to_mask removed, a mask wherever tokens were removed). Breaks step 2 ("Draw lengths one at a time ... until their sum reaches at least num_to_mask; then cut the last one"); input: tokens = [0, 10..49, 2], mask_ratio 0.31 (13 removed), lambda 3, seeds 0..3999 -> mean number of masks: key 4.838, this answer 5.167 (the seeds whose sum hits 13 exactly get one more mask)
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths, total = [], 0
    while total <= num_to_mask:  # draw until the budget is covered
        length = int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator))
        lengths.append(length)
        total += length
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
