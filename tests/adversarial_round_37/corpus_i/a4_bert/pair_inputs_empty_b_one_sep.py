# expect: loses pair_inputs -- an empty segment B is treated as a single sentence, [CLS] A [SEP], without the second [SEP]: pair_inputs([7, 8], [], 6) gives [CLS, 7, 8, SEP, PAD, PAD] instead of [CLS, 7, 8, SEP, SEP, PAD]
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    a, b = list(ids_a), list(ids_b)
    budget = max_len - 3 if b else max_len - 2  # a single sentence needs one [SEP] only
    while len(a) + len(b) > budget:
        if len(a) > len(b):
            a.pop()
        else:
            b.pop()
    input_ids = [CLS_ID] + a + [SEP_ID]
    token_type_ids = [0] * len(input_ids)
    if b:
        input_ids += b + [SEP_ID]
        token_type_ids += [1] * (len(b) + 1)
    n = len(input_ids)
    input_ids += [PAD_ID] * (max_len - n)
    token_type_ids += [0] * (max_len - n)
    attention_mask = [1] * n + [0] * (max_len - n)
    return torch.tensor(input_ids), torch.tensor(token_type_ids), torch.tensor(attention_mask)
