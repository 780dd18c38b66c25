# expect: loses text_infilling  -- BOS and EOS are kept out of the noise by their values (tokens != tokens[0] and != tokens[-1], as a4's special tokens are), so an inner token equal to the BOS or EOS id is dropped from the sequence, and m counts without it; part 4 says the m = len(tokens) - 2 tokens between the first and the last may be noised and the kept tokens stay in order; tokens [0, 10, 11, 0, 12, 13, 2] (BOS 0, an inner 0), mask_ratio 0.25, mask_id 3: the key removes ceil(5 * 0.25) = 2 tokens, the answer ceil(4 * 0.25) = 1 and never outputs the inner 0 (seed 1: key [0, 10, 3, 0, 12, 3, 2], answer [0, 10, 11, 12, 3, 2]; seed 2: key [0, 3, 0, 12, 13, 2], answer [0, 3, 11, 12, 13, 2]); inner tokens distinct from BOS and EOS: equal
# %% [text_infilling]
def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)
    bos, eos = tokens[0], tokens[-1]
    inner = tokens[(tokens != bos) & (tokens != eos)]  # BOS and EOS are never noised
    num_to_mask = math.ceil(len(inner) * mask_ratio)
    if num_to_mask == 0:
        return tokens.clone()
    lengths = []
    while sum(lengths) < num_to_mask:
        lengths.append(int(torch.poisson(torch.tensor(float(poisson_lambda)), generator=generator)))
    lengths[-1] = num_to_mask - sum(lengths[:-1])  # the last span cut to the budget
    n_places = len(inner) - num_to_mask + len(lengths)
    is_span = torch.zeros(n_places, dtype=torch.bool)
    is_span[torch.randperm(n_places, generator=generator)[: len(lengths)]] = True
    out, position, spans = [bos.reshape(1)], 0, iter(lengths)
    for span in is_span.tolist():
        if span:
            out.append(tokens.new_tensor([mask_id]))
            position += next(spans)
        else:
            out.append(inner[position : position + 1])
            position += 1
    out.append(eos.reshape(1))
    return torch.cat(out)
