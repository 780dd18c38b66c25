# expect: full marks -- the lengths BERT's loop leaves, in closed form: with room n = max_len - 3 and an excess, the longer segment alone gives way while the other has at most half the room (A keeps n - len(B) when len(A) >= len(B) and 2 len(B) <= n; B keeps n - len(A) when len(B) > len(A) and 2 len(A) <= n), and otherwise both are cut to the middle, A keeping the odd token (ceil(n / 2), floor(n / 2)), since from equal lengths the loop takes from B first; each segment keeps its first tokens; checked against the loop on every combination up to 40 tokens
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    n, la, lb = max_len - 3, len(ids_a), len(ids_b)
    if la + lb > n:
        if la >= lb and 2 * lb <= n:
            la = n - lb
        elif lb > la and 2 * la <= n:
            lb = n - la
        else:
            la, lb = n - n // 2, n // 2
    input_ids = torch.full((max_len,), PAD_ID, dtype=torch.long)
    token_type_ids = torch.zeros(max_len, dtype=torch.long)
    attention_mask = torch.zeros(max_len, dtype=torch.long)
    used = la + lb + 3
    input_ids[0] = CLS_ID
    input_ids[1 : 1 + la] = torch.tensor(list(ids_a[:la]), dtype=torch.long)
    input_ids[1 + la] = SEP_ID
    input_ids[2 + la : 2 + la + lb] = torch.tensor(list(ids_b[:lb]), dtype=torch.long)
    input_ids[used - 1] = SEP_ID
    token_type_ids[2 + la : used] = 1
    attention_mask[:used] = 1
    return input_ids, token_type_ids, attention_mask
