# expect: loses rms_norm -- written through the Euclidean norm, x sqrt(d) / sqrt(sum x^2 + eps): eps is added to the SUM of squares, which is the spec's formula with eps / d in place of eps; invisible for rows of mean square ~1 (the visible tests) or eps = 0, large for rows whose mean square is of the order of eps; breaks "RMSNorm(x) = g x / sqrt(1/d sum x_j^2 + eps)"; input: rms_norm(1e-3 * torch.ones(16), torch.ones(16)) -> 0.970 everywhere (spec: 1e-3 / sqrt(1e-6 + 1e-6) = 0.707)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    d = x.shape[-1]
    norm = torch.sqrt((x * x).sum(dim=-1, keepdim=True) + eps)  # ||x||, kept away from 0
    return gain * x * (math.sqrt(d) / norm)
