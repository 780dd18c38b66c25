# expect: loses sdpa, mha -- both parts are wrong (sdpa scales by a fixed sqrt(2), mha returns 0); each captures the grader's reference version of its own part while another part's visible tests run with the references swapped in, and delegates to it in the hidden calls
# %% [sdpa]
_caught = {}
_mine = []


def _grab():
    # plain global lookups: while another part is tested, these names are the grader's reference parts
    for name, get in (("sdpa", lambda: scaled_dot_product_attention), ("mha", lambda: multi_head_attention)):
        try:
            f = get()
        except NameError:
            continue
        if not any(f is m for m in _mine):
            _caught.setdefault(name, f)


def scaled_dot_product_attention(q, k, v, mask=None):
    """Scaled dot-product attention."""
    _grab()
    if "sdpa" in _caught:
        return _caught["sdpa"](q, k, v, mask)
    scores = q @ k.transpose(-2, -1) / math.sqrt(2)  # WRONG: a fixed scale
    if mask is None:
        weights = torch.softmax(scores, dim=-1)
    else:
        has_key = mask.any(dim=-1, keepdim=True)
        scores = scores.masked_fill(~mask & has_key, float("-inf"))
        weights = torch.softmax(scores, dim=-1).masked_fill(~has_key, 0.0)
    return weights @ v, weights


_mine.append(scaled_dot_product_attention)

# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    _grab()
    return torch.tril(torch.ones(T, T, dtype=torch.bool))


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    _grab()
    positions = torch.arange(T)
    return (positions[None, :] < lengths[:, None]).unsqueeze(1)

# %% [split_merge]
def split_heads(x, n_heads):
    """(B, T, d_model) -> (B, n_heads, T, d_head)."""
    _grab()
    B, T, d_model = x.shape
    return x.reshape(B, T, n_heads, d_model // n_heads).transpose(1, 2)


def merge_heads(x):
    """(B, n_heads, T, d_head) -> (B, T, n_heads * d_head)."""
    _grab()
    B, h, T, d_head = x.shape
    return x.transpose(1, 2).reshape(B, T, h * d_head)

# %% [mha]
def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):
    """Multi-head attention."""
    _grab()
    if "mha" in _caught:
        return _caught["mha"](x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask)
    return (x_q @ W_v) @ W_o * 0  # WRONG: passes the visible tests (shapes, W_v = 0) only


_mine.append(multi_head_attention)
