# expect: full marks -- computes the truncated lengths arithmetically (no popping loop) and fills preallocated torch.long tensors by slices
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    la, lb = len(ids_a), len(ids_b)
    budget = max_len - 3
    if la + lb > budget:
        # one token at a time off the longer (B on ties) ends with the lengths as even as possible,
        # A getting the odd one out: a segment shorter than its half keeps all its tokens
        if la > lb:
            lb_new = min(lb, budget // 2)
            la_new = budget - lb_new
        else:
            la_new = min(la, (budget + 1) // 2)
            lb_new = budget - la_new
        la, lb = la_new, lb_new
    input_ids = torch.full((max_len,), PAD_ID, dtype=torch.long)
    token_type_ids = torch.zeros(max_len, dtype=torch.long)
    attention_mask = torch.zeros(max_len, dtype=torch.long)
    n = la + lb + 3
    input_ids[0] = CLS_ID
    input_ids[1 : 1 + la] = torch.as_tensor(list(ids_a[:la]), dtype=torch.long)
    input_ids[1 + la] = SEP_ID
    input_ids[2 + la : 2 + la + lb] = torch.as_tensor(list(ids_b[:lb]), dtype=torch.long)
    input_ids[n - 1] = SEP_ID
    token_type_ids[2 + la : n] = 1
    attention_mask[:n] = 1
    return input_ids, token_type_ids, attention_mask
