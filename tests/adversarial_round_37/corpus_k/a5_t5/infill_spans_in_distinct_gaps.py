# expect: loses text_infilling -- puts the K spans into K DISTINCT gaps between kept tokens (randperm of n_kept + 1 gaps) instead of choosing K of the n_kept + K places uniformly: two spans are never adjacent (40 tokens, mask_ratio 0.31, seeds 0..29: 0 adjacent masks, a correct answer has 11), and when K > n_kept + 1 spans are silently dropped
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
    n_kept = len(inner) - num_to_mask
    gaps = set(torch.randperm(n_kept + 1, generator=generator)[: len(lengths)].tolist())  # a gap per span
    out, position, spans = [tokens[:1]], 0, iter(lengths)
    for gap in range(n_kept + 1):
        if gap in gaps:  # the span placed before the gap-th kept token
            out.append(tokens.new_tensor([mask_id]))
            position += next(spans)
        if gap < n_kept:
            out.append(inner[position : position + 1])
            position += 1
    out.append(tokens[-1:])
    return torch.cat(out)
