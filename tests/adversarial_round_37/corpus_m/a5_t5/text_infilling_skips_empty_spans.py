# expect: loses text_infilling -- drops the Poisson draws of length 0 ('a span of length 0 masks nothing') instead of keeping them as mask insertions; breaks 'Lengths of 0 stay (each will insert a <mask>)' and the output length len(tokens) - num_to_mask + K; input: tokens = [0, 10..49, 2], mask_ratio 0.31, mask_id 3, over seeds 0..199 -> the seeds whose draws include a 0 (e.g. the first one found in the check) give one mask fewer than the key; mean number of masks differs
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    inner = tokens[1:-1]  # BOS and EOS are never noised
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths = []
    while sum(lengths) < num_to_mask:
        length = int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator))
        if length > 0:  # a span of length 0 would mask nothing
            lengths.append(length)
    lengths[-1] = num_to_mask - sum(lengths[:-1])  # the last span cut to the budget
    n_places = len(inner) - num_to_mask + len(lengths)
    is_span = torch.zeros(n_places, dtype=torch.bool)
    is_span[torch.randperm(n_places, generator=generator)[: len(lengths)]] = True
    out, position, spans = [tokens[:1]], 0, iter(lengths)
    for span in is_span.tolist():
        if span:  # one mask for the whole span; its tokens are skipped
            out.append(tokens.new_tensor([mask_id]))
            position += next(spans)
        else:  # the next kept token
            out.append(inner[position : position + 1])
            position += 1
    out.append(tokens[-1:])
    return torch.cat(out)
