# expect: loses pair_inputs  -- after the first token comes off the longer segment it alternates A, B, A, B ... instead of always taking the currently longer one; spec: "remove the last token of the longer segment, one token at a time (of B when they are equally long), until it fits"
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    a, b = list(ids_a), list(ids_b)
    excess = len(a) + len(b) - (max_len - 3)
    turn_a = len(a) > len(b)  # start with the longer segment, then take turns
    for _ in range(max(excess, 0)):
        if (turn_a and a) or not b:
            a.pop()
        else:
            b.pop()
        turn_a = not turn_a
    ids = [CLS_ID] + a + [SEP_ID] + b + [SEP_ID]
    types = [0] * (len(a) + 2) + [1] * (len(b) + 1)
    n_pad = max_len - len(ids)
    return (torch.tensor(ids + [PAD_ID] * n_pad), torch.tensor(types + [0] * n_pad),
            torch.tensor([1] * len(ids) + [0] * n_pad))
