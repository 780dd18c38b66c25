# expect: loses sinusoidal  -- the table is built under @torch.inference_mode() ("a constant, no gradient needed"), so it is returned as an inference tensor: the caller cannot change it in place ("Inplace update to inference tensor outside InferenceMode is not allowed") nor use it in a product autograd records (x * pe with x requiring grad raises "Inference tensors cannot be saved for backward"); the release says a caller may change the returned tensors in place; pe = sinusoidal_encoding(10, 8); pe[0] = 1.0: the key's works, the answer's raises (values equal, bit for bit)
# %% [sinusoidal]
@torch.inference_mode()  # a fixed table: no autograd bookkeeping needed
def sinusoidal_encoding(T, d_model):
    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""
    position = torch.arange(T, dtype=torch.float32).unsqueeze(1)  # (T, 1)
    even = torch.arange(0, d_model, 2, dtype=torch.float32)  # the indices 2i
    angle = position / 10000 ** (even / d_model)  # (T, d_model / 2)
    pe = torch.zeros(T, d_model)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle)
    return pe
