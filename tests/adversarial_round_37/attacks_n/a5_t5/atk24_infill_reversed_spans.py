# expect: loses text_infilling -- the Poisson lengths are drawn and the last cut to the budget as the spec says, then laid out in REVERSE order (the cut span first): every call is still exact (BOS/EOS, kept tokens in order, exactly num_to_mask removed, one mask per span), K and the places keep their laws, but the spans' lengths in text order do not follow the rule (the shortened span is always the first one)
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
    lengths[-1] = num_to_mask - sum(lengths[:-1])
    lengths.reverse()  # WRONG: the cut span first
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
