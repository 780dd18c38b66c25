# expect: every part 0 and graded (the answer key, each function raising TimeoutError at once on every hidden call: the jailed key answers within half the limit)
# %% [lm_loss]
def lm_loss(logits, idx):
    """Mean next-token cross-entropy: logits (B, T, V) predict idx (B, T) shifted by one. Returns a scalar."""
    V = logits.shape[-1]
    predictions = logits[:, :-1].reshape(-1, V)  # (B * (T - 1), V): positions 0 .. T-2
    targets = idx[:, 1:].reshape(-1)  # (B * (T - 1),): tokens 1 .. T-1
    return F.cross_entropy(predictions, targets)


def _hidden_raises(f, test='_test_lm_loss'):
    def g(*a, **k):
        if test not in globals():
            raise TimeoutError('hidden')
        return f(*a, **k)
    return g


lm_loss = _hidden_raises(lm_loss)

# %% [top_k]
def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    kth = torch.topk(logits, k, dim=-1).values[..., -1:]  # (..., 1): the k-th largest
    return logits.masked_fill(logits < kth, float("-inf"))


def _hidden_raises(f, test='_test_top_k'):
    def g(*a, **k):
        if test not in globals():
            raise TimeoutError('hidden')
        return f(*a, **k)
    return g


top_k_filter = _hidden_raises(top_k_filter)

# %% [top_p]
def top_p_filter(logits, p):
    """Logits (..., V) with all but the smallest most-likely set of probability >= p set to -inf."""
    sorted_logits, order = torch.sort(logits, dim=-1, descending=True)
    probs = torch.softmax(sorted_logits, dim=-1)
    before = F.pad(torch.cumsum(probs, dim=-1)[..., :-1], (1, 0))  # probability of the tokens ranked above each one
    drop_sorted = (before >= p) & (p < 1)  # the set above it already reaches p; p = 1 keeps all
    drop = torch.zeros_like(drop_sorted).scatter(-1, order, drop_sorted)  # back to vocabulary order
    return logits.masked_fill(drop, float("-inf"))


def _hidden_raises(f, test='_test_top_p'):
    def g(*a, **k):
        if test not in globals():
            raise TimeoutError('hidden')
        return f(*a, **k)
    return g


top_p_filter = _hidden_raises(top_p_filter)

# %% [cached_step]
def cached_attention_step(x, cache_k, cache_v, W_q, W_k, W_v, W_o, n_heads):
    """Self-attention of the newest position x (B, 1, d) over itself and the cached positions.
    Returns (out (B, 1, d), k (B, h, P + 1, d_head), v (B, h, P + 1, d_head))."""
    B, _, d = x.shape
    d_head = d // n_heads
    q = (x @ W_q).view(B, 1, n_heads, d_head).transpose(1, 2)  # (B, h, 1, d_head)
    k_new = (x @ W_k).view(B, 1, n_heads, d_head).transpose(1, 2)  # (B, h, 1, d_head)
    v_new = (x @ W_v).view(B, 1, n_heads, d_head).transpose(1, 2)
    k = torch.cat([cache_k, k_new], dim=2)  # (B, h, P + 1, d_head): time is axis 2
    v = torch.cat([cache_v, v_new], dim=2)
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_head), dim=-1)  # (B, h, 1, P + 1)
    out = (weights @ v).transpose(1, 2).reshape(B, 1, d) @ W_o  # (B, 1, d)
    return out, k, v


def _hidden_raises(f, test='_test_cached_step'):
    def g(*a, **k):
        if test not in globals():
            raise TimeoutError('hidden')
        return f(*a, **k)
    return g


cached_attention_step = _hidden_raises(cached_attention_step)

# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]  # (B, V): the next token's logits
        if temperature == 0:
            token = logits.argmax(dim=-1, keepdim=True)  # (B, 1)
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)  # (B, 1)
        idx = torch.cat([idx, token], dim=1)
    return idx


def _hidden_raises(f, test='_test_generate'):
    def g(*a, **k):
        if test not in globals():
            raise TimeoutError('hidden')
        return f(*a, **k)
    return g


generate = _hidden_raises(generate)

