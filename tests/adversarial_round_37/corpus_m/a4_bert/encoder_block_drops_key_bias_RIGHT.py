# expect: full marks -- relabelled (the writer's own doubt, NOTES.md): b_k adds q . b_k to every score of a query, which the softmax cancels, so leaving it out computes the same function; its true gradient is exactly 0, and an answer that never reads b_k gives it a zero (None) gradient. Was: leaves out b_k because 'it cancels in the softmax' (q . b_k is the same for every key of a query): the outputs equal the key's, but b_k is not part of the graph, so no gradient flows back to it (b_k.grad stays None; torch.autograd.grad over p's tensors raises); breaks 'gradients flow back to x and every tensor of p'; input: block_weights(8,16) with requires_grad, x randn(2,5,8), out.sum().backward() -> key b_k.grad a tensor (~1e-8), this None
# %% [encoder_block]
def encoder_block(x, p, n_heads, attention_mask=None):
    """BERT's post-LN block on x (B, T, d); attention_mask (B, T): 1 = real token, 0 = padding. Returns (B, T, d)."""
    B, T, d = x.shape
    d_head = d // n_heads

    def heads(t):  # (B, T, d) -> (B, h, T, d_head)
        return t.view(B, T, n_heads, d_head).transpose(1, 2)

    q = heads(x @ p["W_q"] + p["b_q"])
    k = heads(x @ p["W_k"])  # b_k adds q . b_k to every score of a row: the softmax cancels it
    v = heads(x @ p["W_v"] + p["b_v"])
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)  # (B, h, T, T)
    if attention_mask is not None:
        padded = attention_mask[:, None, None, :] == 0  # (B, 1, 1, T): the padded keys
        scores = scores.masked_fill(padded, float("-inf"))
    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, d)
    x = F.layer_norm(x + attended @ p["W_o"] + p["b_o"], (d,), p["ln1_gain"], p["ln1_bias"], eps=1e-12)  # add, then normalise
    ff = F.gelu(x @ p["W_1"] + p["b_1"]) @ p["W_2"] + p["b_2"]
    return F.layer_norm(x + ff, (d,), p["ln2_gain"], p["ln2_bias"], eps=1e-12)
