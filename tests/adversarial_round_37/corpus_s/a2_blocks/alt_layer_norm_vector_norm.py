# expect: full marks -- the variance as the squared vector norm of the centred row over d (torch.linalg.vector_norm), rsqrt, gain applied last by addcmul
# %% [layer_norm]
def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    centred = x - x.mean(dim=-1, keepdim=True)
    var = torch.linalg.vector_norm(centred, dim=-1, keepdim=True).square() / x.shape[-1]
    return torch.addcmul(bias, centred * torch.rsqrt(var + eps), gain)
