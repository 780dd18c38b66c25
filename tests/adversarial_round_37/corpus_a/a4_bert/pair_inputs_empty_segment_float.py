# expect: loses pair_inputs  -- builds the ids with torch.cat of torch.tensor(segment); an empty segment is torch.tensor([]) (float32), which promotes all three outputs to float32; spec: "ids_a and ids_b (lists of ordinary token ids; either may be empty) ... return ... three 1-D torch.long tensors of length max_len"
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    a, b = list(ids_a), list(ids_b)
    while len(a) + len(b) > max_len - 3:
        (a if len(a) > len(b) else b).pop()
    A, Bt = torch.tensor(a), torch.tensor(b)
    cls, sep = torch.tensor([CLS_ID]), torch.tensor([SEP_ID])
    ids = torch.cat([cls, A, sep, Bt, sep])
    types = torch.cat([torch.zeros_like(A), torch.zeros(2, dtype=torch.long), torch.ones_like(Bt), torch.ones(1, dtype=torch.long)])
    n_pad = max_len - len(ids)
    mask = torch.cat([torch.ones_like(ids), torch.zeros(n_pad, dtype=ids.dtype)])
    ids = torch.cat([ids, torch.full((n_pad,), PAD_ID, dtype=ids.dtype)])
    types = torch.cat([types, torch.zeros(n_pad, dtype=types.dtype)])
    return ids, types, mask
