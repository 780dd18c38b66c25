# expect: 12/12 (or sdpa's points at least) -- a right notebook whose sdpa answer cell defines the key's function, then runs a timing demo that passes the cell limit (--cell-timeout 10) and is interrupted; the function was defined before the interrupt and its visible tests pass
# %% [sdpa]
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
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])  # (..., T_q, T_k)
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        has_key = mask.any(dim=-1, keepdim=True)  # (..., T_q, 1): False for fully masked queries
        scores = scores.masked_fill(~mask & has_key, float("-inf"))
        weights = torch.softmax(scores, dim=-1).masked_fill(~has_key, 0.0)
    return weights @ v, weights


# how fast is it? (a demo the student left running too long)
import time
_q = torch.randn(64, 32, 16)
_t0 = time.time()
while time.time() - _t0 < 15:
    scaled_dot_product_attention(_q, _q, _q)
