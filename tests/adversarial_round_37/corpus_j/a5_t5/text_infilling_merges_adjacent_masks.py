# expect: loses text_infilling -- collapses neighbouring <mask> tokens into one (as overlapping spans do in fairseq), so two adjacent spans give one mask instead of one each: tokens = [0] + list(range(10, 50)) + [2], mask_ratio=0.31, some seed in 0..50 gives fewer masks and a shorter output than len(tokens) - num_to_mask + K
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
    out, position, spans = [tokens[:1]], 0, iter(lengths)
    for span in is_span.tolist():
        if span:
            out.append(tokens.new_tensor([mask_id]))
            position += next(spans)
        else:
            out.append(inner[position : position + 1])
            position += 1
    out.append(tokens[-1:])
    result = torch.cat(out)
    # one <mask> per gap in the text: consecutive masks are the same gap
    repeat = torch.zeros_like(result, dtype=torch.bool)
    repeat[1:] = (result[1:] == mask_id) & (result[:-1] == mask_id)
    return result[~repeat]
