# expect: loses text_infilling -- lengths are drawn while their sum is <= num_to_mask (not < ): when the running sum hits the budget exactly, one more length is drawn and cut to 0, an extra 0-length span (an extra <mask> inserted); each call still removes exactly num_to_mask tokens with a <mask> per span, but the number of spans is one too many on every seed whose draws land exactly on the budget (40 tokens, ratio 0.5, lambda 3, seeds 0..999: 312 seeds differ, mean K 7.14 in the key, 7.45 here)
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths, total = [], 0
    while total <= num_to_mask and not (lengths and total == num_to_mask and lengths[-1] == 0):
        lengths.append(int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator)))
        total += lengths[-1]
        if total == num_to_mask and len(lengths) > 1 and lengths[-1] == 0:
            break
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
