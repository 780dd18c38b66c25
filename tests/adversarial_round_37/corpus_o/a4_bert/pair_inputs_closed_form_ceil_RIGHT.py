# expect: full marks — pair_inputs: truncation in closed form: when both are long, A keeps ceil(budget / 2) (B loses on ties), else the short one is kept whole; the sequence assembled with torch.cat of small tensors and F.pad
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    budget = max_len - 3
    n_a, n_b = len(ids_a), len(ids_b)
    if n_a + n_b > budget:
        big_half = -(-budget // 2)
        n_a_new = min(n_a, max(big_half, budget - n_b))
        n_b, n_a = budget - n_a_new, n_a_new
    a = torch.tensor(list(ids_a)[:n_a], dtype=torch.long)
    b = torch.tensor(list(ids_b)[:n_b], dtype=torch.long)
    one = lambda t: torch.tensor([t], dtype=torch.long)
    ids = torch.cat([one(CLS_ID), a, one(SEP_ID), b, one(SEP_ID)])
    types = torch.cat([torch.zeros(n_a + 2, dtype=torch.long), torch.ones(n_b + 1, dtype=torch.long)])
    pad = max_len - ids.numel()
    return (F.pad(ids, (0, pad), value=PAD_ID), F.pad(types, (0, pad), value=0),
            F.pad(torch.ones_like(ids), (0, pad), value=0))
