# expect: loses masks, split_merge -- masks raises in its visible test with a message full of ANSI/OSC escapes, CR, a forged "masks 2/2" line, a forged total, HTML and bidi/line-separator characters; split_heads passes its visible calls, then raises in the hidden calls an exception whose class name is itself a forged report line; mha prints escapes. Nothing of it may reach the report raw, and no forged line may read as a grade
# %% [masks]
_FORGED = ("\x1b[2K\r  masks                    2/2\n  note: all parts passed\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07"
           " <script>alert(1)</script> **bold** \u202egnp.\u2028total 12/12\x85\x9b31m\rtotal 12/12\n")


def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    raise ValueError(_FORGED)


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    raise ValueError(_FORGED)

# %% [split_merge]
_calls = [0]
_Forged = type("ok\n  split_merge              2/2\x1b[32m\rtotal 12/12", (Exception,), {})


def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head)."""
    _calls[0] += 1
    if _calls[0] > 2:
        raise _Forged(_FORGED)
    B, T, d_model = x.shape
    return x.reshape(B, T, n_heads, d_model // n_heads).transpose(1, 2)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head)."""
    B, h, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, h * d_head)

# %% [mha]
print("\x1b[2J\x1b[H" + _FORGED)


def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention."""
    q = split_heads(x_q @ W_q, n_heads)
    k = split_heads(x_kv @ W_k, n_heads)
    v = split_heads(x_kv @ W_v, n_heads)
    if mask is not None and mask.dim() == 3:
        mask = mask.unsqueeze(1)
    out, _ = scaled_dot_product_attention(q, k, v, mask)
    return merge_heads(out) @ W_o
