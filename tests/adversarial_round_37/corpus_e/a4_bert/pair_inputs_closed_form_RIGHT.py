# expect: full marks -- the truncation in closed form: popping one token at a time off the longer segment (B on a tie) ends with A keeping min(len(A), max(budget - len(B), ceil(budget / 2))) tokens and B the rest of the budget (or all of B); the three tensors are filled with torch.full and slice assignment; spec: "remove the **last** token of the **longer** segment, one token at a time (of B when they are equally long), until it fits" and "then pad to `max_len` with `PAD_ID`, token type 0 and attention mask 0"
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    budget = max_len - 3
    n_a = min(len(ids_a), max(budget - len(ids_b), (budget + 1) // 2))  # A keeps the larger half of a tie
    n_b = min(len(ids_b), budget - n_a)
    n = n_a + n_b + 3
    input_ids = torch.full((max_len,), PAD_ID, dtype=torch.long)
    token_type_ids = torch.zeros(max_len, dtype=torch.long)
    attention_mask = torch.zeros(max_len, dtype=torch.long)
    input_ids[0] = CLS_ID
    input_ids[1 : 1 + n_a] = torch.tensor(ids_a[:n_a], dtype=torch.long)
    input_ids[1 + n_a] = SEP_ID
    input_ids[2 + n_a : 2 + n_a + n_b] = torch.tensor(ids_b[:n_b], dtype=torch.long)
    input_ids[n - 1] = SEP_ID
    token_type_ids[2 + n_a : n] = 1  # B and the last [SEP]
    attention_mask[:n] = 1
    return input_ids, token_type_ids, attention_mask
