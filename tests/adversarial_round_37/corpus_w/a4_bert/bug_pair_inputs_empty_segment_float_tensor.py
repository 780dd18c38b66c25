# expect: loses pair_inputs -- "ids_a and ids_b (lists of ordinary token ids; either may be empty) ... return three 1-D torch.long tensors": the pieces are joined with torch.cat of torch.tensor(list) pieces, and torch.tensor([]) of an empty segment is float32, so whenever A or B is empty (or truncated away) all three outputs come back float32 instead of torch.long; the visible pairs are never empty
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask)."""
    a, b = list(ids_a), list(ids_b)
    while len(a) + len(b) > max_len - 3:
        if len(a) > len(b):
            a.pop()
        else:
            b.pop()
    n_pad = max_len - len(a) - len(b) - 3
    cls, sep = torch.tensor([CLS_ID]), torch.tensor([SEP_ID])
    input_ids = torch.cat([cls, torch.tensor(a), sep, torch.tensor(b), sep, torch.full((n_pad,), PAD_ID)])
    token_type_ids = torch.cat([torch.zeros(len(a) + 2, dtype=torch.long), torch.ones(len(b) + 1, dtype=torch.long), torch.zeros(n_pad, dtype=torch.long)])
    attention_mask = (torch.arange(max_len) < max_len - n_pad).long()
    return input_ids, token_type_ids.to(input_ids.dtype), attention_mask.to(input_ids.dtype)
