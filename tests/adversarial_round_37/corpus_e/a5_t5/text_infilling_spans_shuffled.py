# expect: loses text_infilling -- puts the spans at the chosen places in a random order (one more randperm) instead of the order drawn: the number of spans and the kept tokens are right, but the cut-down last span is no longer always the last span of the text, so where short and long spans go is not the spec's law; spec: "Put the `K` spans, in the order drawn, among the `m - num_to_mask` tokens that are kept" and "over many seeds, the number of spans and where they go"
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    inner = tokens[1:-1]  # BOS and EOS are never noised
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths = []
    while sum(lengths) < num_to_mask:
        lengths.append(int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator)))
    lengths[-1] = num_to_mask - sum(lengths[:-1])  # the last span cut to the budget
    lengths = [lengths[i] for i in torch.randperm(len(lengths), generator=generator).tolist()]  # spans in any order
    n_places = len(inner) - num_to_mask + len(lengths)
    is_span = torch.zeros(n_places, dtype=torch.bool)
    is_span[torch.randperm(n_places, generator=generator)[: len(lengths)]] = True
    out, position, spans = [tokens[:1]], 0, iter(lengths)
    for span in is_span.tolist():
        if span:  # one mask for the whole span; its tokens are skipped
            out.append(tokens.new_tensor([mask_id]))
            position += next(spans)
        else:  # the next kept token
            out.append(inner[position : position + 1])
            position += 1
    out.append(tokens[-1:])
    return torch.cat(out)
