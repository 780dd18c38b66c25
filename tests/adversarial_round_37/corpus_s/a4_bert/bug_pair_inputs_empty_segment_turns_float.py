# expect: loses pair_inputs -- each piece made a tensor and joined by torch.cat; an empty segment becomes `torch.tensor([])`, which is float32, and torch.cat promotes the whole result to float32; the spec: "ids_a and ids_b (lists of ordinary token ids; either may be empty)" and "three 1-D torch.long tensors"; pair_inputs([], [10, 11], 6): key input_ids torch.int64, answer torch.float32 (the same values, [2., 3., 10., 11., 3., 0.]); the other two tensors long in both; both segments non-empty (every visible case): equal, dtypes included
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    a, b = list(ids_a), list(ids_b)
    while len(a) + len(b) > max_len - 3:  # off the longer segment, B when equally long
        if len(a) > len(b):
            a.pop()
        else:
            b.pop()
    n_real = len(a) + len(b) + 3
    n_pad = max_len - n_real
    cls, sep = torch.tensor([CLS_ID]), torch.tensor([SEP_ID])
    input_ids = torch.cat([cls, torch.tensor(a), sep, torch.tensor(b), sep, torch.full((n_pad,), PAD_ID)])
    token_type_ids = torch.cat([torch.zeros(len(a) + 2, dtype=torch.long), torch.ones(len(b) + 1, dtype=torch.long), torch.zeros(n_pad, dtype=torch.long)])
    attention_mask = torch.cat([torch.ones(n_real, dtype=torch.long), torch.zeros(n_pad, dtype=torch.long)])
    return input_ids, token_type_ids, attention_mask
