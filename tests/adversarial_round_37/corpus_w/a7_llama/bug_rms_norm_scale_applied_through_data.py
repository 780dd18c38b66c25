# expect: loses rms_norm -- "gradients flow back to x and gain" (the release: "must let gradients flow to every tensor argument"): the 1/RMS factor is multiplied in through .data to save a tensor, so the values are right but autograd records only gain * x: the gradient for gain is x instead of x / RMS(x), and the one for x is gain alone, without the scale or the normalisation's own derivative; every visible test checks values only
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    out = gain * x  # a new tensor: safe to scale in place
    out.data.mul_(torch.rsqrt(x.detach().pow(2).mean(dim=-1, keepdim=True) + eps))
    return out
