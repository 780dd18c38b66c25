# expect: loses pair_inputs -- truncates by popping from the caller's own lists, so ids_a and ids_b are shortened for the caller; spec: "Do not modify `ids_a` or `ids_b`."
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    while len(ids_a) + len(ids_b) > max_len - 3:
        (ids_a if len(ids_a) > len(ids_b) else ids_b).pop()
    real = [CLS_ID, *ids_a, SEP_ID, *ids_b, SEP_ID]
    n_pad = max_len - len(real)
    input_ids = torch.tensor(real + [PAD_ID] * n_pad, dtype=torch.long)
    token_type_ids = torch.tensor([0] * (len(ids_a) + 2) + [1] * (len(ids_b) + 1) + [0] * n_pad, dtype=torch.long)
    attention_mask = torch.tensor([1] * len(real) + [0] * n_pad, dtype=torch.long)
    return input_ids, token_type_ids, attention_mask
