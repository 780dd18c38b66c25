# expect: loses text_infilling -- sorts the drawn span lengths, longest first, before placing them ('place the long spans first'), so the leftmost span is always the longest: the removed tokens pile up at the start of the text; every exact check holds (BOS/EOS, the kept tokens in order, exactly num_to_mask removed, one mask per span, K the same) and the visible tests pass; breaks 'Put the K spans, in the order drawn, among the m - num_to_mask tokens that are kept' (hidden: 'over many seeds, the number of spans and where they go'); input: tokens [BOS, 10..49, EOS], mask_ratio 0.31, seeds 0..1999 -> mean number of removed tokens among the first 20 inner tokens minus among the last 20: ~+3.2 for the file, ~+0.3 for the key
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]  # BOS and EOS are never noised
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths = []
    while sum(lengths) < num_to_mask:
        lengths.append(int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator)))
    lengths[-1] = num_to_mask - sum(lengths[:-1])  # the last span cut to the budget
    lengths.sort(reverse=True)  # the long spans are placed first
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
