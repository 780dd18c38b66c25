# expect: loses text_infilling -- num_to_mask = int(m * mask_ratio) + 1 (0 at ratio 0) instead of ceil, one too many whenever m * mask_ratio is a whole number; "num_to_mask = ceil(m * mask_ratio) of them are removed", and the part's own example (m = 6, mask_ratio 0.5, 3 removed) is such a case; tokens [0, 10..15, 2], ratio 0.5, mask 3, seed 0: key removes 3 ([0, 10, 11, 3, 15, 2]), this answer 4 ([0, 10, 3, 15, 2]); ratio 0.31: equal. The spec says the tests avoid m * mask_ratio within 1e-6 of an integer, so this is expected to escape: see NOTES.md
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    inner = tokens[1:-1]
    share = len(inner) * mask_ratio
    num_to_mask = int(share) + 1 if share > 0 else 0  # rounded up
    if num_to_mask == 0:
        return tokens.clone()
    lengths = []
    while sum(lengths) < num_to_mask:
        lengths.append(int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator)))
    lengths[-1] = num_to_mask - sum(lengths[:-1])
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
