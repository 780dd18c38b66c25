# expect: loses pair_inputs -- counts the tokens to remove from each segment, then slices a[:-ra], b[:-rb]; when one count is 0 the slice [:-0] empties that segment: pair_inputs([1, 2, 3, 4, 5], [6], 8) loses B entirely
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    la, lb = len(ids_a), len(ids_b)
    a, b = list(ids_a), list(ids_b)
    excess = la + lb - (max_len - 3)
    if excess > 0:
        ra = rb = 0
        for _ in range(excess):  # count the removals as BERT would make them
            if la - ra > lb - rb:
                ra += 1
            else:
                rb += 1
        a, b = a[:-ra], b[:-rb]
    input_ids = [CLS_ID] + a + [SEP_ID] + b + [SEP_ID]
    token_type_ids = [0] * (len(a) + 2) + [1] * (len(b) + 1)
    attention_mask = [1] * len(input_ids)
    while len(input_ids) < max_len:
        input_ids.append(PAD_ID); token_type_ids.append(0); attention_mask.append(0)
    return torch.tensor(input_ids), torch.tensor(token_type_ids), torch.tensor(attention_mask)
