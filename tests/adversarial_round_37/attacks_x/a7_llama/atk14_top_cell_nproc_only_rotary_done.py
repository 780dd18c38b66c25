# expect: rotary's points of 14 (rotary, the answer key's, and nothing else: rms_norm, swiglu, gqa and block are the release's stubs, which raise NotImplementedError in their visible tests; a cell after the set-up sets RLIMIT_NPROC of the jail's zygote, PID 1, to 0 with resource.prlimit), held for review for the import
# %% [new after setup]
import resource

resource.prlimit(1, resource.RLIMIT_NPROC, (0, 0))

# %% [rms_norm]
def rms_norm(x, gain, eps=1e-6):
    """RMSNorm over the last axis of x (..., d) with gain (d,). Returns (..., d)."""
    # YOUR CODE HERE
    raise NotImplementedError()

# %% [swiglu]
def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    # YOUR CODE HERE
    raise NotImplementedError()

# %% [gqa]
def grouped_query_attention(x, W_q, W_k, W_v, W_o, n_heads, n_kv_heads, cache=None, base=10000.0):
    """Causal GQA of the newest positions x (B, T, d) over the cache and themselves.
    Returns (out (B, T, d), (k, v) each (B, n_kv_heads, P + T, d_head))."""
    # YOUR CODE HERE
    raise NotImplementedError()

# %% [block]
def llama_block(x, p, n_heads, n_kv_heads, cache=None, eps=1e-6, base=10000.0):
    """One Llama block on the newest positions x (B, T, d). Returns (out (B, T, d), the grown cache)."""
    # YOUR CODE HERE
    raise NotImplementedError()
