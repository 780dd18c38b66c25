# expect: loses text_infilling -- the k-th drawn span is put at place perm[k] (the k-th entry of the permutation) instead of the k-th chosen place from the left, so the spans land in a random order, not "the K spans, in the order drawn"; every call is valid (counts, kept tokens, a mask per span), only the law changes (the last, cut span is no longer always the rightmost); tokens [0, 10, 11, 12, 13, 2], mask_ratio 0.5, mask 3, lambda 1.5, 20,000 seeds: output [0, 3, 10, 3, 13, 2] key 323, answer 171; [0, 3, 12, 3, 13, 2] key 0 (impossible: a 0-length span drawn before a 2-length one), answer 152; one span (lambda 50): equal on every seed
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]
    m = inner.shape[0]
    num_to_mask = math.ceil(m * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths = []
    while sum(lengths) < num_to_mask:
        lengths.append(int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator)))
    lengths[-1] = num_to_mask - sum(lengths[:-1])
    K = len(lengths)
    n_places = m - num_to_mask + K
    span_at = [None] * n_places  # place -> the length of the span there, None for a kept token
    for length, place in zip(lengths, torch.randperm(n_places, generator=generator)[:K].tolist()):
        span_at[place] = length
    out, position = [int(tokens[0])], 0
    for length in span_at:
        if length is None:
            out.append(int(inner[position]))
            position += 1
        else:
            out.append(mask_id)
            position += length
    out.append(int(tokens[-1]))
    return torch.tensor(out, dtype=torch.long)
