# expect: loses pooled_head  -- pools in NumPy (hidden.detach().numpy()) and rebuilds a tensor, so the logits depend on weight and bias only: no gradient reaches hidden (the encoder); spec: "the head is trained on them, so keep them differentiable (no torch.no_grad(), no .detach())"
# %% [pooled_head]
import numpy as np


def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    h = hidden.detach().cpu().numpy()
    m = attention_mask.cpu().numpy()
    if pooling == "cls":
        pooled = h[:, 0]
    elif pooling == "mean":
        pooled = (h * m[:, :, None]).sum(axis=1) / m.sum(axis=1, keepdims=True)
    elif pooling == "last":
        pooled = h[np.arange(h.shape[0]), m.sum(axis=1) - 1]
    else:
        raise ValueError(f"unknown pooling {pooling!r}")
    pooled = torch.from_numpy(np.ascontiguousarray(pooled)).to(weight.dtype)
    return pooled @ weight.T + bias
