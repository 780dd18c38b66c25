# expect: loses pair_inputs -- counts how many tokens come off each segment (longer first, B on ties) and then cuts with a[:-drop_a] and b[:-drop_b]; when one count is 0, a[:-0] is a[:0], the EMPTY list, so the segment that should stay whole disappears; the visible truncation takes one token off each and passes; breaks 'truncate it as BERT's own code does: remove the last token of the longer segment, one token at a time'; input: pair_inputs([7], [10, 11, 12], 6) -> input_ids [CLS, SEP, 10, 11, SEP, PAD] (key: [CLS, 7, SEP, 10, 11, SEP])
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    a, b = list(ids_a), list(ids_b)
    excess = len(a) + len(b) - (max_len - 3)
    drop_a = drop_b = 0
    for _ in range(max(excess, 0)):  # count what comes off each segment: the longer one, B on ties
        if len(a) - drop_a > len(b) - drop_b:
            drop_a += 1
        else:
            drop_b += 1
    if excess > 0:
        a, b = a[:-drop_a], b[:-drop_b]  # the last tokens come off
    input_ids = [CLS_ID] + a + [SEP_ID] + b + [SEP_ID]
    token_type_ids = [0] * (len(a) + 2) + [1] * (len(b) + 1)
    n_pad = max_len - len(input_ids)
    attention_mask = [1] * len(input_ids) + [0] * n_pad
    return (torch.tensor(input_ids + [PAD_ID] * n_pad), torch.tensor(token_type_ids + [0] * n_pad),
            torch.tensor(attention_mask))
