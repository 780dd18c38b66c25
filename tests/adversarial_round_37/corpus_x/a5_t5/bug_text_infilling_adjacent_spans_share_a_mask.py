# expect: loses text_infilling -- "Return BOS, then that sequence with each span written as one `mask_id`, then EOS: a 1-D torch.long tensor of length len(tokens) - num_to_mask + K": two spans that fall on neighbouring places are written as a single mask (a mask right after a mask "says nothing more"), so whenever two of the K places are adjacent (often: K = 3 spans among 7 places are adjacent in 5 of 7 draws) the output is one or more masks short and the count of masks no longer tells the number of spans; every kept token, BOS, EOS and the removed count stay right, and the visible tests count masks only between 1 and 12
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths = []
    while sum(lengths) < num_to_mask:
        lengths.append(int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator)))
    lengths[-1] = num_to_mask - sum(lengths[:-1])
    n_places = len(inner) - num_to_mask + len(lengths)
    is_span = torch.zeros(n_places, dtype=torch.bool)
    is_span[torch.randperm(n_places, generator=generator)[: len(lengths)]] = True
    out, position, spans = [int(tokens[0])], 0, iter(lengths)
    for span in is_span.tolist():
        if span:
            if out[-1] != mask_id or len(out) == 1:  # one mask is enough for a run of spans
                out.append(mask_id)
            position += next(spans)
        else:
            out.append(int(inner[position]))
            position += 1
    out.append(int(tokens[-1]))
    return torch.tensor(out, dtype=torch.long)
