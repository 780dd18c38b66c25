# expect: loses pair_inputs -- truncates with ids_a.pop() / ids_b.pop() on the caller's own lists; spec: "Do not modify ids_a or ids_b."
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    while len(ids_a) + len(ids_b) > max_len - 3:  # BERT's _truncate_seq_pair
        (ids_a if len(ids_a) > len(ids_b) else ids_b).pop()
    tokens = [CLS_ID, *ids_a, SEP_ID, *ids_b, SEP_ID]
    types = [0] * (len(ids_a) + 2) + [1] * (len(ids_b) + 1)
    pad = max_len - len(tokens)
    return (torch.tensor(tokens + [PAD_ID] * pad), torch.tensor(types + [0] * pad),
            torch.tensor([1] * len(tokens) + [0] * pad))
