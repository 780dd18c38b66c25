# expect: loses pair_inputs -- the truncated lengths in closed form, with the test for "A short enough to keep whole" written la < n // 2 instead of la <= n / 2 (n = max_len - 3): when len(A) == n // 2 with n odd and B longer than n - len(A), A keeps la and B gets n // 2, one token less than it should: pair_inputs([1, 2], list(range(10, 20)), 8) -> B cut to 2 tokens and one PAD, the key keeps 3 and no PAD; every other combination of lengths agrees (the visible max_len 6 and 10 too)
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    n = max_len - 3
    la, lb = len(ids_a), len(ids_b)
    if la + lb > n:  # BERT cuts the longer one, token by token (B at ties): where that ends, in one step
        if la < n // 2:
            lb = n - la
        elif lb <= n // 2:
            la = n - lb
        else:
            la, lb = min(la, (n + 1) // 2), min(lb, n // 2)
    a, b = list(ids_a[:la]), list(ids_b[:lb])
    ids = [CLS_ID, *a, SEP_ID, *b, SEP_ID]
    types = [0] * (la + 2) + [1] * (lb + 1)
    pad = max_len - len(ids)
    return (torch.tensor(ids + [PAD_ID] * pad, dtype=torch.long), torch.tensor(types + [0] * pad, dtype=torch.long),
            torch.tensor([1] * len(ids) + [0] * pad, dtype=torch.long))
