# expect: loses sdpa -- with a mask the weights are computed in NumPy and brought back, so q and k get no gradient; spec: "It must be differentiable with respect to q, k and v (build it from torch operations)"
# %% [sdpa]
import numpy as np


def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention.

    Args:
        q: queries, shape (..., T_q, d_k).
        k: keys, shape (..., T_k, d_k).
        v: values, shape (..., T_k, d_v).
        mask: optional boolean tensor broadcastable to (..., T_q, T_k); True = may attend.

    Returns:
        (output, weights): output of shape (..., T_q, d_v) and the attention weights of shape
        (..., T_q, T_k). Each row of weights sums to 1, or is all zeros if every key is masked.
    """
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
        return weights @ v, weights
    # masked softmax in NumPy, where a fully masked row is easy to handle without NaN
    s = scores.detach().cpu().numpy()
    m = np.broadcast_to(mask.cpu().numpy(), s.shape)
    s = np.where(m, s, -np.inf)
    row_max = np.max(np.where(m, s, -1e30), axis=-1, keepdims=True)
    e = np.where(m, np.exp(s - row_max), 0.0)
    denom = e.sum(axis=-1, keepdims=True)
    w = np.divide(e, denom, out=np.zeros_like(e), where=denom > 0)
    weights = torch.from_numpy(w).to(dtype=v.dtype, device=v.device)
    return weights @ v, weights
