# expect: loses pair_inputs -- computes how many tokens each segment loses and slices ids[:-cut]; when a too-long pair takes nothing off one segment, [:-0] empties that segment; spec: "remove the last token of the longer segment, one token at a time ... until it fits"
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    a, b = list(ids_a), list(ids_b)
    excess = len(a) + len(b) - (max_len - 3)
    if excess > 0:
        n_a, n_b = len(a), len(b)
        cut_a = cut_b = 0
        for _ in range(excess):  # count the removals first, longer segment first, B on ties
            if n_a > n_b:
                n_a, cut_a = n_a - 1, cut_a + 1
            else:
                n_b, cut_b = n_b - 1, cut_b + 1
        a, b = a[:-cut_a], b[:-cut_b]
    input_ids = [CLS_ID] + a + [SEP_ID] + b + [SEP_ID]
    token_type_ids = [0] * (len(a) + 2) + [1] * (len(b) + 1)
    attention_mask = [1] * len(input_ids)
    while len(input_ids) < max_len:
        input_ids.append(PAD_ID)
        token_type_ids.append(0)
        attention_mask.append(0)
    return torch.tensor(input_ids), torch.tensor(token_type_ids), torch.tensor(attention_mask)
