# expect: loses top_p -- the probabilities are computed from logits cast to float32 ('softmax in float32', as Hugging Face does), so for float64 logits a cumulative sum within ~1e-8 of p lands on the wrong side; breaks the float64 case of 'the smallest set ... whose probabilities (softmax of the row) sum to at least p' (outputs in the inputs' dtype, here float64); input: logits = log([0.5+1e-9, 0.5-1e-9]) in float64, p = 0.5+2e-9 -> key keeps both tokens (the first alone has 0.5+1e-9 < p), this keeps 1 (both round to 0.5 in float32, and so does p)
# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    probs = torch.softmax(sorted_logits.float(), dim=-1)  # softmax in float32 for stability
    before = F.pad(torch.cumsum(probs, dim=-1)[..., :-1], (1, 0))  # probability of the tokens ranked above each one
    drop_sorted = (before >= p) & (p < 1)  # the set above it already reaches p; p = 1 keeps all
    drop = torch.zeros_like(drop_sorted).scatter(-1, order, drop_sorted)  # back to vocabulary order
    return logits.masked_fill(drop, float("-inf"))
