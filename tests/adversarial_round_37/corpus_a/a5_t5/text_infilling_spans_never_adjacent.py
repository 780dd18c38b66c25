# expect: loses text_infilling  -- puts each span in a distinct gap between kept tokens (K of the m - num_to_mask + 1 gaps), so two spans can never be adjacent and the places are not uniform over the m - num_to_mask + K places; spec: "of the m - num_to_mask + K places of this sequence of kept tokens and spans, the K taken by the spans are chosen uniformly at random"
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]
    m = len(inner)
    num_to_mask = math.ceil(m * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths = []
    while sum(lengths) < num_to_mask:
        lengths.append(int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator)))
    lengths[-1] = num_to_mask - sum(lengths[:-1])
    n_kept = m - num_to_mask
    # gap g = just before kept token g (g = n_kept: after the last one); one span per chosen gap
    gaps = torch.randperm(n_kept + 1, generator=generator)[: len(lengths)].sort().values.tolist()
    out, pos, spans, kept_seen = [tokens[:1]], 0, iter(lengths), 0
    for g in range(n_kept + 1):
        if gaps and gaps[0] == g:
            gaps.pop(0)
            out.append(tokens.new_tensor([mask_id]))
            pos += next(spans)
        if g < n_kept:
            out.append(inner[pos : pos + 1])
            pos += 1
    out.append(tokens[-1:])
    return torch.cat(out)
