# expect: loses text_infilling -- puts each span into its own gap between kept tokens (K of the m - num_to_mask + 1 gaps), so two spans are never next to each other; spec: "of the m - num_to_mask + K places of this sequence of kept tokens and spans, the K taken by the spans are chosen uniformly at random"
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
    n_gaps = n_kept + 1  # before the first kept token, between two, after the last
    K = min(len(lengths), n_gaps)
    gaps = sorted(torch.randperm(n_gaps, generator=generator)[:K].tolist())
    out, position, spans = [tokens[:1]], 0, iter(lengths)
    for gap in range(n_gaps):
        if gaps and gap == gaps[0]:
            gaps.pop(0)
            out.append(tokens.new_tensor([mask_id]))
            position += next(spans)
        if gap < n_kept:
            out.append(inner[position : position + 1])
            position += 1
    out.append(tokens[-1:])
    return torch.cat(out)
