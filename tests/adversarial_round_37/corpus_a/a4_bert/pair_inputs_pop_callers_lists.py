# expect: loses pair_inputs  -- truncates by popping from ids_a / ids_b themselves, so the caller's lists lose tokens; spec: "Do not modify ids_a or ids_b"
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    while len(ids_a) + len(ids_b) > max_len - 3:
        if len(ids_a) > len(ids_b):
            ids_a.pop()
        else:
            ids_b.pop()
    input_ids = [CLS_ID, *ids_a, SEP_ID, *ids_b, SEP_ID]
    types = [0] * (len(ids_a) + 2) + [1] * (len(ids_b) + 1)
    mask = [1] * len(input_ids)
    pad = max_len - len(input_ids)
    return (torch.tensor(input_ids + [PAD_ID] * pad, dtype=torch.long),
            torch.tensor(types + [0] * pad, dtype=torch.long),
            torch.tensor(mask + [0] * pad, dtype=torch.long))
