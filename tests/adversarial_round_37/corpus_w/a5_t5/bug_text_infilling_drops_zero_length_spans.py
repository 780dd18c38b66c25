# expect: loses text_infilling -- "Lengths of 0 stay (each will insert a <mask>)": draws of length 0 are thrown away here (they remove nothing, so they look useless), so no <mask> is ever inserted without removing a token, K is the number of non-zero spans and its law (and the output's length, len(tokens) - num_to_mask + K) is wrong: with poisson_lambda = 0.5 most draws are 0; exactly num_to_mask tokens are still removed and the kept tokens keep their order, which is all the visible test checks
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS). A 1-D torch.long tensor."""
    g = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths = []
    while sum(lengths) < num_to_mask:
        length = int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=g))
        if length > 0:  # a span of 0 tokens masks nothing
            lengths.append(length)
    lengths[-1] = num_to_mask - sum(lengths[:-1])
    n_places = len(inner) - num_to_mask + len(lengths)
    is_span = torch.zeros(n_places, dtype=torch.bool)
    is_span[torch.randperm(n_places, generator=g)[: len(lengths)]] = True
    out, position, spans = [int(tokens[0])], 0, iter(lengths)
    for span in is_span.tolist():
        if span:
            out.append(mask_id)
            position += next(spans)
        else:
            out.append(int(inner[position]))
            position += 1
    return torch.tensor(out + [int(tokens[-1])], dtype=torch.long)
