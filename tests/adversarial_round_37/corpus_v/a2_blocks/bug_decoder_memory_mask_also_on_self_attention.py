# expect: loses decoder -- the memory mask is also ANDed into the causal self-attention mask whenever it broadcasts there (S == T, or S == 1): x (2, 5, 8), memory (2, 5, 8), memory_mask [[1,1,1,1,1],[1,1,1,0,0]] as (B, 1, S) -> sequence 1's decoder positions 3 and 4 are hidden from its self-attention, outputs differ by ~0.5; with S != T, with S == 1 (every row has its one real token), or with no memory_mask, it agrees
# %% [decoder]
def decoder_block(x, memory, p, n_heads, memory_mask=None):
    """One pre-LN decoder block: x (B, T, d), memory (B, S, d), memory_mask e.g. (B, 1, S). Returns (B, T, d)."""
    T = x.shape[1]
    self_mask = causal_mask(T)
    if memory_mask is not None:
        try:  # padded positions are padded on both sides when the lengths line up
            self_mask = torch.broadcast_to(self_mask & memory_mask, (x.shape[0], T, T))
        except RuntimeError:
            pass
    h = layer_norm(x, p["ln1_gain"], p["ln1_bias"])
    x = x + multi_head_attention(h, h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads, self_mask)
    h = layer_norm(x, p["ln2_gain"], p["ln2_bias"])
    x = x + multi_head_attention(h, memory, p["C_q"], p["C_k"], p["C_v"], p["C_o"], n_heads, memory_mask)
    h = layer_norm(x, p["ln3_gain"], p["ln3_bias"])
    return x + feed_forward(h, p["W_1"], p["b_1"], p["W_2"], p["b_2"])
