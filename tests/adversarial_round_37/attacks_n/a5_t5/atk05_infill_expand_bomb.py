# expect: loses text_infilling -- after the 3 visible calls, each hidden call returns BOS expanded (stride 0) to 2**40 positions: a tiny archive whose logical size is 8 TiB, aimed at a grader that parses the reply before bounding its size (a worker out of memory or hung would be a grader fault, i.e. not graded)
# %% [text_infilling]
def _honest(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling of tokens (1-D, BOS ... EOS): spans of Poisson lengths, one mask_id each. A 1-D torch.long tensor."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    inner = tokens[1:-1]  # BOS and EOS are never noised
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


_calls = [0]


def text_infilling(tokens, mask_ratio, mask_id, poisson_lambda=3.0, seed=0):
    """BART's text infilling."""
    _calls[0] += 1
    if _calls[0] <= 3:
        return _honest(tokens, mask_ratio, mask_id, poisson_lambda, seed)
    return tokens[:1].clone().expand(2 ** 40)
