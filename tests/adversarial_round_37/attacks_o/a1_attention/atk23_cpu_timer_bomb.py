# expect: loses masks -- the masks answer cell (right code) arms a CPU-time timer (ITIMER_VIRTUAL, 1.5 s of the process's CPU) whose handler kills the process with os._exit: it fires later, during other parts' tests or hidden calls, and is re-armed each time the process is restarted and the cells re-run. A cell that kills its process should cost its own part (README: 'a cell that crashes or kills its process is recorded, and the rest of the notebook is run without it'); sdpa, split_merge and mha are the key's (10 of 12)
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

# %% [masks]
import os
import signal


def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.tril(torch.ones(T, T, dtype=torch.bool))


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    positions = torch.arange(T)  # (T,)
    return (positions[None, :] < lengths[:, None]).unsqueeze(1)  # (B, 1, T)


signal.signal(signal.SIGVTALRM, lambda *_: os._exit(3))
signal.setitimer(signal.ITIMER_VIRTUAL, 1.5)

# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head); head i gets features i*d_head:(i+1)*d_head."""
    B, T, d_model = x.shape
    return x.view(B, T, n_heads, d_model // n_heads).transpose(1, 2)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head), the inverse of split_heads."""
    B, h, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, h * d_head)

# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention from x_q (B, T_q, d_model) to x_kv (B, T_k, d_model).

    W_q, W_k, W_v, W_o: (d_model, d_model), applied as x @ W. mask: optional boolean, (T_q, T_k),
    (B, T_q, T_k) or (B, 1, T_k), True = may attend, the same for every head.
    Returns the output, shape (B, T_q, d_model).
    """
    q = split_heads(x_q @ W_q, n_heads)  # (B, h, T_q, d_head)
    k = split_heads(x_kv @ W_k, n_heads)  # (B, h, T_k, d_head)
    v = split_heads(x_kv @ W_v, n_heads)  # (B, h, T_k, d_head)
    if mask is not None and mask.dim() == 3:
        mask = mask.unsqueeze(1)  # (B, 1, T_q or 1, T_k): broadcast over heads
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o  # (B, T_q, d_model)

