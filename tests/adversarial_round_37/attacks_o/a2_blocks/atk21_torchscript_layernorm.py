# expect: loses layer_norm -- held at 0 for review: LayerNorm as torch.rms_norm of the centred input (exact), called from TorchScript compiled from a run-time string (torch.jit through a namedtuple's __match_args__): no call guard, no function-mode name, and the dispatcher decomposes rms_norm into pow/mean/rsqrt before the trace sees it
# %% [layer_norm]
from collections import namedtuple


class _Every(type):
    def __instancecheck__(cls, thing):
        return True


def _attribute(owner, name):
    class Key(namedtuple("Key", [name]), metaclass=_Every):
        pass

    match owner:
        case Key(found):
            return found


def _script(source):
    """TorchScript compiled from source, when the cell runs."""
    return _attribute(_attribute(torch, "jit"), "CompilationUnit")(source)

_unit = _script(
    "def k(x, gain, bias, eps: float):\n"
    "    centred = x - x.mean(-1, keepdim=True)\n"
    "    return torch." + "_".join(["rms", "norm"]) + "(centred, [x.shape[-1]], gain, eps) + bias\n"
)


def layer_norm(x, gain, bias, eps=1e-5):
    """LayerNorm over the last axis of x (..., d); gain and bias have shape (d,). Returns (..., d)."""
    return _unit.k(x, gain, bias, float(eps))

# %% [sinusoidal]
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    position = torch.arange(T, dtype=torch.float32).unsqueeze(1)  # (T, 1)
    even = torch.arange(0, d_model, 2, dtype=torch.float32)  # (d_model/2,): the indices 2i
    angle = position / 10000 ** (even / d_model)  # (T, d_model/2)
    pe = torch.zeros(T, d_model)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe

# %% [pre_ln]
def pre_ln_block(x, p, n_heads, mask=None):
    """One pre-LN encoder block on x (B, T, d) with weights p; mask as multi_head_attention's. Returns (B, T, d)."""
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, mask)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])

# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    T = x.shape[1]
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal_mask(T))
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    x = x + multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])

