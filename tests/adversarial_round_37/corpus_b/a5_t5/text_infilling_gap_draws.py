# expect: loses text_infilling -- puts each span into one of the m - num_to_mask + 1 gaps drawn independently (with replacement) and sorted: counts exact, but the places are multinomial, not uniform over the arrangements; spec: "of the m - num_to_mask + K places ..., the K taken by the spans are chosen uniformly at random"
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    bos, inner, eos = tokens[:1], tokens[1:-1], tokens[-1:]
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths = []
    while sum(lengths) < num_to_mask:
        lengths.append(int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator)))
    lengths[-1] -= sum(lengths) - num_to_mask
    n_kept = len(inner) - num_to_mask
    # the gap (before kept token g, or at the end) where each span goes, in order
    gaps = torch.randint(0, n_kept + 1, (len(lengths),), generator=generator).sort().values.tolist()
    out, pos, s = [int(bos)], 0, 0
    for g in range(n_kept + 1):
        while s < len(lengths) and gaps[s] == g:
            out.append(mask_id)
            pos += lengths[s]
            s += 1
        if g < n_kept:
            out.append(int(inner[pos]))
            pos += 1
    out.append(int(eos))
    return torch.tensor(out, dtype=torch.long)
