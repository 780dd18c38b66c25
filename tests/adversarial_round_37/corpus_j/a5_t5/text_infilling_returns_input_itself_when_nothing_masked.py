# expect: loses text_infilling -- when num_to_mask is 0 it returns the tokens tensor itself, not the copy the spec asks for: out = text_infilling(t, 0.0, 3); out[1] = 99 also changes t (out is t)
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    inner = tokens[1:-1]
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens  # nothing to do
    generator = torch.Generator().manual_seed(seed)
    rate = torch.tensor(float(poisson_lambda))
    lengths = []
    while sum(lengths) < num_to_mask:
        lengths.append(int(torch.poisson(rate, generator=generator)))
    lengths[-1] -= sum(lengths) - num_to_mask
    K = len(lengths)
    n_places = len(inner) - num_to_mask + K
    places = torch.randperm(n_places, generator=generator)[:K].sort().values.tolist()
    pieces, src, spans = [tokens[:1]], 0, iter(lengths)
    for place in range(n_places):
        if places and place == places[0]:
            places.pop(0)
            pieces.append(tokens.new_tensor([mask_id]))
            src += next(spans)
        else:
            pieces.append(inner[src : src + 1])
            src += 1
    pieces.append(tokens[-1:])
    return torch.cat(pieces)
