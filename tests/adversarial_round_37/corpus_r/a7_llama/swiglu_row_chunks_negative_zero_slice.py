# expect: loses swiglu -- rows in blocks of 4,096 and the remainder as rows[-rest:], which for rest = 0 is every row (-0 == 0), so an exact multiple of 4,096 rows gives twice the rows and the reshape fails; "no fixed limit on its length", x (..., d) of any leading size; W randn (8, 12), (8, 12), (12, 8): x randn(2, 2048, 8): key returns (2, 2048, 8), this answer RuntimeError; (2, 2047, 8) and (4100, 8): equal
# %% [swiglu]
_ROWS = 4096  # rows per block: bounds the (rows, d_ff) hidden activations held at once


def swiglu(x, W_gate, W_up, W_down):
    """SwiGLU feed-forward of x (..., d): (..., d)."""
    rows = x.reshape(-1, x.shape[-1])
    n = rows.shape[0]
    full = n // _ROWS * _ROWS
    rest = n - full

    def ffn(r):
        return (F.silu(r @ W_gate) * (r @ W_up)) @ W_down

    blocks = [ffn(rows[i : i + _ROWS]) for i in range(0, full, _ROWS)]
    blocks.append(ffn(rows[-rest:]))  # the last, shorter block
    return torch.cat(blocks).reshape(*x.shape[:-1], W_down.shape[-1])
