# expect: loses rms_norm -- calls torch's F.rms_norm (forbidden, held for review); a comment line just above it holds a U+2028 LINE SEPARATOR followed by the honest formula, so that a report quoting "line 4" through str.splitlines() (which breaks at U+2028, where Python does not) shows the honest formula as the evidence: the held part must stay at 0 and the evidence must quote the real line
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    # RMSNorm, as in the book:     return gain * x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + eps)
    return F.rms_norm(x, (x.shape[-1],), gain, eps)
