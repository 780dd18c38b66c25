# expect: full marks -- run-length encodes the mask with torch.unique_consecutive and rebuilds inputs and targets run by run
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    values, counts = torch.unique_consecutive(noise_mask, return_counts=True)
    runs = list(zip(values.tolist(), torch.split(tokens, counts.tolist())))
    inputs, targets, n_in, n_tg = [], [], 0, 0
    for is_noise, chunk in runs:
        if is_noise:
            n_in += 1
            inputs.append(torch.tensor([vocab_size - n_in]))
            targets.append(chunk)
        else:
            n_tg += 1
            targets.append(torch.tensor([vocab_size - n_tg]))
            inputs.append(chunk)
    eos = torch.tensor([eos_id])
    return torch.cat(inputs + [eos]).long(), torch.cat(targets + [eos]).long()
