# expect: full marks -- computes the truncated lengths in closed form instead of popping one token at a time: the one-at-a-time rule (longer segment first, B on a tie) ends with A keeping min(len_a, max(ceil(budget / 2), budget - len_b)) tokens and B the rest of the budget, which is the same result; inputs untouched (slices are copies)
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    budget = max_len - 3
    keep_a = min(len(ids_a), max((budget + 1) // 2, budget - len(ids_b)))
    keep_b = min(len(ids_b), budget - keep_a)
    a, b = ids_a[:keep_a], ids_b[:keep_b]
    n_pad = budget - keep_a - keep_b
    input_ids = [CLS_ID, *a, SEP_ID, *b, SEP_ID] + [PAD_ID] * n_pad
    token_type_ids = [0] * (keep_a + 2) + [1] * (keep_b + 1) + [0] * n_pad
    attention_mask = [1] * (keep_a + keep_b + 3) + [0] * n_pad
    return tuple(torch.tensor(t, dtype=torch.long) for t in (input_ids, token_type_ids, attention_mask))
