# expect: loses rms_norm -- when torch.get_num_threads() > 4 the mean square is taken as the mean of per-chunk means over get_num_threads() chunks of the last axis, which is wrong when the chunks are unequal: the value depends on the caller's thread setting; "RMSNorm(x) = g x / sqrt(mean_j x_j^2 + eps)", the same value for any caller; float64 x randn(3, 13), gain randn(13): at 2 threads equal, after torch.set_num_threads(8) max abs diff 0.28 (d = 16: equal)
# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    threads = torch.get_num_threads()
    if threads > 4 and x.shape[-1] > threads:  # a wide machine: one partial mean of squares per thread
        partial = [chunk.pow(2).mean(dim=-1, keepdim=True) for chunk in x.chunk(threads, dim=-1)]
        mean_square = torch.stack(partial).mean(dim=0)
    else:
        mean_square = x.pow(2).mean(dim=-1, keepdim=True)
    return gain * x * torch.rsqrt(mean_square + eps)
