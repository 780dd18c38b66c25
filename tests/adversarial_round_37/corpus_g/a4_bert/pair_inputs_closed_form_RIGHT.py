# expect: full marks -- closed-form truncation (cut the longer down to the shorter, then B gets the odd one) written into one zero (3, max_len) torch.long buffer, rows returned as clones
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    la, lb = len(ids_a), len(ids_b)
    excess = max(0, la + lb - (max_len - 3))
    long_a = la > lb
    gap = min(excess, abs(la - lb))  # the longer one loses this much first
    rest = excess - gap  # then both are equally long: B, then A, then B, ...
    cut_a = (gap if long_a else 0) + rest // 2
    cut_b = (0 if long_a else gap) + rest - rest // 2
    a, b = list(ids_a)[: la - cut_a], list(ids_b)[: lb - cut_b]
    n_real = len(a) + len(b) + 3
    rows = torch.zeros(3, max_len, dtype=torch.long)  # PAD_ID = 0, type 0 and mask 0 for the padding
    rows[0, :n_real] = torch.tensor([CLS_ID, *a, SEP_ID, *b, SEP_ID], dtype=torch.long)
    rows[1, len(a) + 2 : n_real] = 1
    rows[2, :n_real] = 1
    rows[0, n_real:] = PAD_ID
    return rows[0].clone(), rows[1].clone(), rows[2].clone()
