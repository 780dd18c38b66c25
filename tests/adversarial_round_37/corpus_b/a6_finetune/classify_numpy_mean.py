# expect: loses pooled_head -- pools in NumPy (hidden.detach().numpy()) and brings the vector back: the head still gets its gradient but none reaches hidden, so the encoder below cannot be fine-tuned; spec: "Return the logits (B, C); the head is trained on them, so keep them differentiable (no torch.no_grad(), no .detach())"
# %% [pooled_head]
import numpy as np


def classify(hidden, attention_mask, weight, bias, pooling):
    """Logits (B, C) of a linear head (weight (C, d), bias (C,)) on hidden (B, T, d) pooled by "cls", "mean" or "last"."""
    h = hidden.detach().cpu().numpy()
    m = attention_mask.cpu().numpy().astype(h.dtype)[..., None]  # (B, T, 1)
    if pooling == "cls":
        pooled = h[:, 0]
    elif pooling == "mean":
        pooled = (h * m).sum(axis=1) / m.sum(axis=1)
    elif pooling == "last":
        pooled = h[np.arange(h.shape[0]), m[..., 0].sum(axis=1).astype(int) - 1]
    else:
        raise ValueError(f"unknown pooling {pooling!r}")
    pooled = torch.as_tensor(pooled, dtype=hidden.dtype, device=hidden.device)
    return pooled @ weight.T + bias
