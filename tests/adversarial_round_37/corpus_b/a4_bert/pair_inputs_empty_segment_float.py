# expect: loses pair_inputs -- builds input_ids with torch.cat of torch.tensor(ids): an empty segment is torch.tensor([]) (float32), so the result is promoted to float; spec: "ids_a and ids_b (lists of ordinary token ids; either may be empty) ... three 1-D torch.long tensors of length max_len"
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    a, b = list(ids_a), list(ids_b)
    while len(a) + len(b) > max_len - 3:
        if len(a) > len(b):
            a = a[:-1]
        else:
            b = b[:-1]
    cls, sep = torch.tensor([CLS_ID]), torch.tensor([SEP_ID])
    real = torch.cat([cls, torch.tensor(a), sep, torch.tensor(b), sep])
    n_pad = max_len - len(real)
    input_ids = torch.cat([real, torch.full((n_pad,), PAD_ID)])
    token_type_ids = torch.cat([torch.zeros(len(a) + 2, dtype=torch.long), torch.ones(len(b) + 1, dtype=torch.long), torch.zeros(n_pad, dtype=torch.long)])
    attention_mask = (torch.arange(max_len) < len(real)).long()
    return input_ids, token_type_ids, attention_mask
