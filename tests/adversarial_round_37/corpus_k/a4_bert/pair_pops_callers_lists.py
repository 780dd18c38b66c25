# expect: loses pair_inputs -- truncates by popping from ids_a / ids_b themselves, so the caller's lists lose their last tokens ("Do not modify ids_a or ids_b"): pair_inputs(a, b, 6) with a = [7, 8, 9], b = [10, 11] leaves a = [7, 8], b = [10]
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    a, b = ids_a, ids_b
    while len(a) + len(b) > max_len - 3:  # BERT's _truncate_seq_pair
        (a if len(a) > len(b) else b).pop()
    input_ids = [CLS_ID, *a, SEP_ID, *b, SEP_ID]
    n_real = len(input_ids)
    input_ids += [PAD_ID] * (max_len - n_real)
    token_type_ids = [0] * (len(a) + 2) + [1] * (len(b) + 1) + [0] * (max_len - n_real)
    attention_mask = [1] * n_real + [0] * (max_len - n_real)
    return tuple(torch.tensor(t, dtype=torch.long) for t in (input_ids, token_type_ids, attention_mask))
