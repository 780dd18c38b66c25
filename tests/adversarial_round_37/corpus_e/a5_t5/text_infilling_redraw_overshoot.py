# expect: loses text_infilling -- a length that would overshoot the budget is thrown away and drawn again instead of cut: the total is still exactly num_to_mask, but every span is now a Poisson draw conditioned to fit, so the number of spans K is larger than the spec's (the last span is never a cut-down draw) and the masks are more numerous; spec: "Draw lengths one at a time from Poisson(`poisson_lambda`) ... until their sum reaches at least `num_to_mask`; then cut the last one so that the sum is exactly `num_to_mask`"
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
        length = int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator))
        if sum(lengths) + length <= num_to_mask:  # a span that does not fit is drawn again
            lengths.append(length)
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
