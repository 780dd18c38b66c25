# expect: loses text_infilling (the K chosen places, taken from randperm unsorted, are paired with the lengths in the order drawn, so the lengths land on the places in random order and the cut last length (the remainder) is not the rightmost span's: every call is exact (kept tokens in order, num_to_mask removed, K masks), only the joint law of places and lengths differs: m 40, ratio 0.31, lambda 3, seeds 0..3999: the mean length of the rightmost span (where it is alone between kept tokens, 3,397 seeds) is 2.53 for the key, 2.92 for the answer; 18 of 200 calls are identical to the key's, all where the order happens not to matter)
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths, total = [], 0
    while total < num_to_mask:
        lengths.append(int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator)))
        total += lengths[-1]
    lengths[-1] -= total - num_to_mask  # the last one cut to the budget
    n_places = len(inner) - num_to_mask + len(lengths)
    places = torch.randperm(n_places, generator=generator)[: len(lengths)].tolist()
    span_at = dict(zip(places, lengths))  # place -> the length of the span put there
    out, position = [int(tokens[0])], 0
    for place in range(n_places):
        if place in span_at:
            out.append(mask_id)
            position += span_at[place]
        else:
            out.append(int(inner[position]))
            position += 1
    out.append(int(tokens[-1]))
    return torch.tensor(out, dtype=torch.long)
