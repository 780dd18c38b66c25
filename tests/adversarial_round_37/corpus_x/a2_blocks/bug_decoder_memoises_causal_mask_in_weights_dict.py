# expect: loses decoder -- "it changes none of its arguments in place" (every function): the block keeps the causal mask it builds in the caller's weight dict, `p.setdefault(("causal", T), causal_mask(T))`, so every call adds a key to `p` (a dict argument changed in place; its tensors are untouched, so a check that compares only tensors sees nothing); the values are right, but the caller's dict grows, and code that iterates `p` afterwards (an optimizer over `p.values()`, a state_dict save, `len(p)`, `torch.stack` of its tensors) meets a boolean (T, T) tensor it never put there
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    T = x.shape[1]
    causal = p.setdefault(("causal", T), causal_mask(T))  # built once per length, kept with the weights
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, causal)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    x = x + multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
