# expect: loses text_infilling -- when num_to_mask is 0 it returns `tokens` itself ('nothing changes'), not a copy: the caller's tensor and the 'corrupted' example are the same object, so editing one edits the other; the visible test compares values only and passes; breaks 'If it is 0, return a copy of tokens' and the hidden-tests line 'the tensors it returns are new (none is an argument or a view of one)'; input: tokens = tensor([0, 10, 11, 2]), mask_ratio 0.0 -> the result `is tokens` (True) and shares its storage (key: a new tensor)
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]  # BOS and EOS are never noised
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens  # nothing to remove: the tokens as they are
    lengths = []
    while sum(lengths) < num_to_mask:
        lengths.append(int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator)))
    lengths[-1] = num_to_mask - sum(lengths[:-1])  # the last span cut to the budget
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
