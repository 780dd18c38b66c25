# expect: loses pair_inputs -- the last token is taken off with list.remove(seg[-1]), which removes the first token EQUAL to the last one: right only while a segment has no repeated ids (the visible ones are all distinct); breaks "remove the last token of the longer segment"; input: pair_inputs([7, 8, 7], [9], 6) -> [CLS, 8, 7, SEP, 9, SEP] (spec: [CLS, 7, 8, SEP, 9, SEP])
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    a, b = list(ids_a), list(ids_b)
    while len(a) + len(b) > max_len - 3:
        longer = a if len(a) > len(b) else b
        longer.remove(longer[-1])
    input_ids = [CLS_ID, *a, SEP_ID, *b, SEP_ID]
    token_type_ids = [0] * (len(a) + 2) + [1] * (len(b) + 1)
    n_pad = max_len - len(input_ids)
    attention_mask = [1] * len(input_ids) + [0] * n_pad
    return (torch.tensor(input_ids + [PAD_ID] * n_pad, dtype=torch.long),
            torch.tensor(token_type_ids + [0] * n_pad, dtype=torch.long),
            torch.tensor(attention_mask, dtype=torch.long))
