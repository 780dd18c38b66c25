# expect: full marks -- draws the Poisson lengths in batches of 16 from the seeded generator and consumes them in order until the budget is reached (an i.i.d. sequence read one at a time: the same law as one draw per call), keeps zero lengths, places the spans with one randperm and builds the output as a Python list
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    body = tokens[1:-1].tolist()
    budget = math.ceil(len(body) * mask_ratio)
    if budget == 0:
        return tokens.clone()
    lengths, total = [], 0
    while total < budget:
        for length in torch.poisson(torch.full((16,), float(poisson_lambda)), generator=generator).long().tolist():
            lengths.append(length)
            total += length
            if total >= budget:
                break
    lengths[-1] -= total - budget  # the last span ends exactly at the budget
    places = len(body) - budget + len(lengths)
    span_places = set(torch.randperm(places, generator=generator)[: len(lengths)].tolist())
    out, i, next_span = [tokens[0].item()], 0, 0
    for place in range(places):
        if place in span_places:
            out.append(mask_id)
            i += lengths[next_span]
            next_span += 1
        else:
            out.append(body[i])
            i += 1
    out.append(tokens[-1].item())
    return torch.tensor(out, dtype=torch.long)
