# expect: loses pair_inputs -- builds input_ids with torch.cat over torch.tensor(segment): an empty segment gives torch.tensor([]), a float32 tensor, and the concatenation is promoted to float32; spec: "Given ids_a and ids_b (lists of ordinary token ids; either may be empty) ... return (input_ids, token_type_ids, attention_mask), three 1-D torch.long tensors of length max_len"
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    a, b = list(ids_a), list(ids_b)
    while len(a) + len(b) > max_len - 3:  # longest first, B on a tie
        (a if len(a) > len(b) else b).pop()
    cls, sep = torch.tensor([CLS_ID]), torch.tensor([SEP_ID])
    input_ids = torch.cat([cls, torch.tensor(a), sep, torch.tensor(b), sep])
    n_real = input_ids.numel()
    token_type_ids = torch.cat([torch.zeros(len(a) + 2, dtype=torch.long), torch.ones(len(b) + 1, dtype=torch.long)])
    pad = max_len - n_real
    input_ids = F.pad(input_ids, (0, pad), value=PAD_ID)
    token_type_ids = F.pad(token_type_ids, (0, pad), value=0)
    attention_mask = (torch.arange(max_len) < n_real).long()
    return input_ids, token_type_ids, attention_mask
