# expect: full marks -- writes LayerNorm for one vector and maps it over every leading position with torch.func.vmap (on the input flattened to (N, d) with reshape, and reshaped back), using torch.var_mean(correction=0)
# %% [layer_norm]
from torch.func import vmap


def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    def one(vec):  # (d,) -> (d,)
        var, mean = torch.var_mean(vec, correction=0)
        return gain * (vec - mean) / torch.sqrt(var + eps) + bias

    rows = x.reshape(-1, x.shape[-1])  # (N, d): every leading position is a row
    return vmap(one)(rows).reshape(x.shape)
