# expect: loses text_infilling -- num_to_mask as `int(torch.tensor(m * mask_ratio).ceil())`: torch.tensor of a Python float is float32, which rounds m * mask_ratio to a float32 before the ceiling; past about 2,000 a product up to 1.2e-4 above a whole number (outside the 1e-6 the tests avoid) rounds down onto it; m 9,000 (tokens BOS, 10 .. 9009, EOS), mask_ratio 2700.0001 / 9000: key removes 2,701 tokens, answer 2,700 (seeds 0, 1, 2); m 40, mask_ratio 0.31: equal on 100 seeds
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]
    num_to_mask = int(torch.tensor(len(inner) * mask_ratio).ceil())
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
    return torch.cat(out)
