# expect: loses pair_inputs — truncates in closed form, giving A round(budget / 2) tokens when both segments are too long; Python's round goes to the even integer at .5, so for an odd budget 5, 9, 13, ... A gets the smaller half, where BERT's one-at-a-time rule (B first on ties) leaves A the larger half; the visible budget 3 rounds up by luck; input: pair_inputs([7, 8, 9, 10, 11], [20, 21, 22, 23, 24], 8) -> file A = [7, 8], B = [20, 21, 22]; key A = [7, 8, 9], B = [20, 21]
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    budget = max_len - 3
    n_a, n_b = len(ids_a), len(ids_b)
    if n_a + n_b > budget:
        half = round(budget / 2)  # A's share when both are long: the longer half goes to A
        if n_a <= half:
            n_b = budget - n_a
        elif n_b <= budget - half:
            n_a = budget - n_b
        else:
            n_a, n_b = half, budget - half
    a, b = list(ids_a[:n_a]), list(ids_b[:n_b])
    real = [CLS_ID] + a + [SEP_ID] + b + [SEP_ID]
    pad = max_len - len(real)
    input_ids = torch.tensor(real + [PAD_ID] * pad, dtype=torch.long)
    token_type_ids = torch.tensor([0] * (n_a + 2) + [1] * (n_b + 1) + [0] * pad, dtype=torch.long)
    attention_mask = torch.tensor([1] * len(real) + [0] * pad, dtype=torch.long)
    return input_ids, token_type_ids, attention_mask
