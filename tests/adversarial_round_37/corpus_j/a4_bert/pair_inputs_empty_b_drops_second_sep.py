# expect: loses pair_inputs -- with an empty segment B it writes the single-sentence form [CLS] A [SEP] (no second [SEP]); the spec's pair always has both: pair_inputs([7, 8], [], 6) gives [CLS, 7, 8, SEP, PAD, PAD] instead of [CLS, 7, 8, SEP, SEP, PAD]
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    a, b = ids_a[:], ids_b[:]
    while len(a) + len(b) > max_len - 3:
        if len(a) > len(b):
            a = a[:-1]
        else:
            b = b[:-1]
    tokens = [CLS_ID] + a + [SEP_ID]
    types = [0] * len(tokens)
    if b:  # a second segment
        tokens += b + [SEP_ID]
        types += [1] * (len(b) + 1)
    mask = [1] * len(tokens)
    pad = max_len - len(tokens)
    return (
        torch.tensor(tokens + [PAD_ID] * pad, dtype=torch.long),
        torch.tensor(types + [0] * pad, dtype=torch.long),
        torch.tensor(mask + [0] * pad, dtype=torch.long),
    )
