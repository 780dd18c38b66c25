# expect: loses top_p  -- sorts, cumsums and scatters along dim=1 (assumes (B, V)), so a single row (V,) crashes and (B, T, V) is wrong; spec: "Keep, in each row, the smallest set of most likely tokens ..." with the docstring "Logits (..., V)"
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    probs = torch.softmax(logits, dim=1)
    sorted_probs, order = probs.sort(dim=1, descending=True)
    cum = sorted_probs.cumsum(dim=1)
    remove = (cum - sorted_probs) >= p  # the tokens ranked above already reach p
    remove_orig = remove.scatter(1, order, remove)
    return logits.masked_fill(remove_orig, float("-inf"))
