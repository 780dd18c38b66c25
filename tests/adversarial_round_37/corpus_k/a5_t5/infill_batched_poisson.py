# expect: full marks -- draws the Poisson lengths num_to_mask at a time (torch.poisson on a full tensor) and keeps them in order up to the first prefix whose sum reaches num_to_mask: i.i.d. draws, so the spans have exactly the law of drawing one at a time; the places are K of the n_kept + K slots of one randperm; the order of draws is "yours to choose"
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    bos, inner, eos = tokens[:1], tokens[1:-1], tokens[-1:]
    m = inner.numel()
    num_to_mask = math.ceil(m * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths, total = [], 0
    while total < num_to_mask:
        batch = torch.poisson(torch.full((num_to_mask,), float(poisson_lambda)), generator=generator)
        for length in batch.long().tolist():
            lengths.append(min(length, num_to_mask - total))  # the last one cut to the budget
            total += lengths[-1]
            if total >= num_to_mask:
                break
    K = len(lengths)
    slots = m - num_to_mask + K
    span_slot = torch.zeros(slots, dtype=torch.bool)
    span_slot[torch.randperm(slots, generator=generator)[:K]] = True
    is_mask = torch.ones(slots, dtype=torch.bool)
    pieces, read, next_span = [], 0, 0
    for slot in span_slot.tolist():
        if slot:
            pieces.append(mask_id)
            read += lengths[next_span]
            next_span += 1
        else:
            pieces.append(int(inner[read]))
            read += 1
    return torch.cat([bos, torch.tensor(pieces, dtype=torch.long), eos])
