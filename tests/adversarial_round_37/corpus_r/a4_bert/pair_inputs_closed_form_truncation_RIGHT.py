# expect: full marks -- style: the truncation in closed form (the longer segment cut down to the shorter, the rest shared out with B taking the odd one), no loop over the excess tokens
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    len_a, len_b = len(ids_a), len(ids_b)
    excess = max(len_a + len_b - (max_len - 3), 0)
    gap = abs(len_a - len_b)
    if excess <= gap:  # every token comes off the longer segment
        cut_a, cut_b = (excess, 0) if len_a > len_b else (0, excess)
    else:  # the longer one down to the shorter, then one each, B first
        rest = excess - gap
        cut_a = (gap if len_a > len_b else 0) + rest // 2
        cut_b = (gap if len_b > len_a else 0) + (rest + 1) // 2
    a, b = list(ids_a[: len_a - cut_a]), list(ids_b[: len_b - cut_b])
    n_real = len(a) + len(b) + 3
    n_pad = max_len - n_real
    input_ids = torch.tensor([CLS_ID, *a, SEP_ID, *b, SEP_ID] + [PAD_ID] * n_pad, dtype=torch.long)
    token_type_ids = torch.tensor([0] * (len(a) + 2) + [1] * (len(b) + 1) + [0] * n_pad, dtype=torch.long)
    attention_mask = torch.tensor([1] * n_real + [0] * n_pad, dtype=torch.long)
    return input_ids, token_type_ids, attention_mask
