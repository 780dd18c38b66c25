# expect: loses pair_inputs -- truncates by popping from the caller's ids_a and ids_b themselves ("Do not modify ids_a or ids_b"); the tensors returned equal the key's and the visible tests pass list literals; differs whenever the pair is too long, e.g. a, b = [7, 8, 9], [10, 11]; pair_inputs(a, b, 6) leaves a = [7, 8], b = [10]
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    while len(ids_a) + len(ids_b) > max_len - 3:  # BERT's _truncate_seq_pair
        if len(ids_a) > len(ids_b):
            ids_a.pop()
        else:
            ids_b.pop()
    tokens = [CLS_ID, *ids_a, SEP_ID, *ids_b, SEP_ID]
    types = [0] * (len(ids_a) + 2) + [1] * (len(ids_b) + 1)
    pad = max_len - len(tokens)
    return (
        torch.tensor(tokens + [PAD_ID] * pad, dtype=torch.long),
        torch.tensor(types + [0] * pad, dtype=torch.long),
        torch.tensor([1] * len(tokens) + [0] * pad, dtype=torch.long),
    )
