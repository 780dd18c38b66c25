# expect: loses pair_inputs -- "truncate it as BERT's own code does: remove the **last** token of the **longer** segment, one token at a time ... until it fits": the loop only counts how many tokens come off each segment and then cuts both with `a[:-drop_a], b[:-drop_b]`; when the pair is too long but all the excess comes off one segment, the other's count is 0 and `x[:-0]` is `x[:0]`, the empty list (ids_a = [1, 2, 3, 4, 5], ids_b = [6], max_len = 7 gives [CLS, 1, 2, 3, SEP, SEP, PAD], B emptied, instead of [CLS, 1, 2, 3, SEP, 6, SEP]); the visible examples cut one token off each segment
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    a, b = list(ids_a), list(ids_b)
    excess = len(a) + len(b) - (max_len - 3)
    if excess > 0:
        drop_a = drop_b = 0
        for _ in range(excess):
            if len(a) - drop_a > len(b) - drop_b:
                drop_a += 1
            else:
                drop_b += 1
        a, b = a[:-drop_a], b[:-drop_b]
    tokens = [CLS_ID] + a + [SEP_ID] + b + [SEP_ID]
    types = [0] * (len(a) + 2) + [1] * (len(b) + 1)
    pad = max_len - len(tokens)
    return (torch.tensor(tokens + [PAD_ID] * pad), torch.tensor(types + [0] * pad), torch.tensor([1] * len(tokens) + [0] * pad))
