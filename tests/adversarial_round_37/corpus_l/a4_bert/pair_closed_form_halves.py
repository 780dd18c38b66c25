# expect: loses pair_inputs -- the truncation in closed form, B keeps min(len(B), budget // 2) and A the rest: right when B is the shorter segment or both are long (the visible cases), but when A is the short one B is cut to half the budget anyway and the pair ends up shorter than it may be; breaks "remove the last token of the longer segment, one token at a time ... until it fits"; input: pair_inputs([7], [10, 11, 12, 13], 6) -> [CLS, 7, SEP, 10, SEP, PAD] (spec: [CLS, 7, SEP, 10, 11, SEP])
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    budget = max_len - 3
    n_b = min(len(ids_b), budget // 2)  # B gives way on ties, so it keeps the smaller half
    n_a = min(len(ids_a), budget - n_b)
    a, b = list(ids_a[:n_a]), list(ids_b[:n_b])
    ids = [CLS_ID] + a + [SEP_ID] + b + [SEP_ID]
    types = [0] * (len(a) + 2) + [1] * (len(b) + 1)
    pad = max_len - len(ids)
    return (torch.tensor(ids + [PAD_ID] * pad), torch.tensor(types + [0] * pad), torch.tensor([1] * len(ids) + [0] * pad))
