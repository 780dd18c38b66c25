# expect: loses rms_norm -- lifts the input with torch.atleast_2d so that a single vector has a row axis, and never takes it off again: a (d,) input comes back (1, d). Breaks "any number of leading dimensions (none, one or several)" and "Return a tensor of x's shape" (the visible (3, 4) check compares with allclose, which broadcasts); input: x = torch.tensor([3.0, 4.0]), gain ones(2) -> key shape (2,), this answer shape (1, 2)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    rows = torch.atleast_2d(x)  # (rows..., d): a lone vector becomes one row
    scale = torch.rsqrt(rows.pow(2).mean(dim=-1, keepdim=True) + eps)
    return gain * rows * scale
