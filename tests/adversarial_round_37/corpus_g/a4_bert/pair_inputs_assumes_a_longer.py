# expect: loses pair_inputs -- closed-form truncation that only evens out an A longer than B; when B is the longer segment it still takes half the excess from A
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    excess = max(0, len(ids_a) + len(ids_b) - (max_len - 3))
    from_a = min(excess, max(len(ids_a) - len(ids_b), 0))  # first bring the longer A down to B's length
    rest = excess - from_a
    from_a += rest // 2  # then alternate: B loses the odd one
    from_b = excess - from_a
    a = ids_a[: len(ids_a) - from_a]
    b = ids_b[: len(ids_b) - from_b]
    tokens = [CLS_ID, *a, SEP_ID, *b, SEP_ID]
    types = [0] * (len(a) + 2) + [1] * (len(b) + 1)
    pad = max_len - len(tokens)
    return (torch.tensor(tokens + [PAD_ID] * pad), torch.tensor(types + [0] * pad), torch.tensor([1] * len(tokens) + [0] * pad))
