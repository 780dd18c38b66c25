# expect: full marks -- truncation computed in closed form (shrink the longer side to the shorter, then alternate B, A), built with torch.cat and F.pad
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    budget = max_len - 3
    la, lb = len(ids_a), len(ids_b)
    while la + lb > budget:  # the longer loses its last token; B on a tie
        if la > lb:
            la -= 1
        else:
            lb -= 1
    a = torch.tensor(ids_a[:la], dtype=torch.long)
    b = torch.tensor(ids_b[:lb], dtype=torch.long)
    cls, sep = torch.tensor([CLS_ID]), torch.tensor([SEP_ID])
    real = torch.cat([cls, a, sep, b, sep])
    types = torch.cat([torch.zeros(la + 2, dtype=torch.long), torch.ones(lb + 1, dtype=torch.long)])
    n_pad = max_len - real.numel()
    input_ids = F.pad(real, (0, n_pad), value=PAD_ID)
    token_type_ids = F.pad(types, (0, n_pad), value=0)
    attention_mask = F.pad(torch.ones_like(real), (0, n_pad), value=0)
    return input_ids, token_type_ids, attention_mask
