# expect: loses pair_inputs -- truncates by recursion, one call per removed token, so a pair more than ~1000 tokens too long raises RecursionError (and copies the lists at every call); breaks 'no fixed limit on its length (the tests go past every usual buffer)'; input: pair_inputs(list(range(5, 3005)), [7, 8], 512) -> key a (512,) pair, this RecursionError
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    if len(ids_a) + len(ids_b) > max_len - 3:  # too long: one token off the end of the longer segment, then again
        if len(ids_a) > len(ids_b):
            return pair_inputs(ids_a[:-1], ids_b, max_len)
        return pair_inputs(ids_a, ids_b[:-1], max_len)
    input_ids = [CLS_ID] + list(ids_a) + [SEP_ID] + list(ids_b) + [SEP_ID]
    token_type_ids = [0] * (len(ids_a) + 2) + [1] * (len(ids_b) + 1)
    n_pad = max_len - len(input_ids)
    attention_mask = [1] * len(input_ids) + [0] * n_pad
    input_ids = input_ids + [PAD_ID] * n_pad
    token_type_ids = token_type_ids + [0] * n_pad
    return torch.tensor(input_ids), torch.tensor(token_type_ids), torch.tensor(attention_mask)
