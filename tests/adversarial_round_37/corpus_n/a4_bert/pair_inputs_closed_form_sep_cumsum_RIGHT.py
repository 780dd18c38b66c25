# expect: full marks -- truncates in closed form: the token-at-a-time rule (longer first, B on ties) ends with the shorter segment whole when it fits beside the other's remainder, and otherwise with ceil(N/2) tokens of A and floor(N/2) of B (N = max_len - 3); the token types come from a running count of [SEP] before each position (ordinary ids never equal SEP_ID), the attention mask from the real length; tensors via torch.full; same three tensors as the key for every split of lengths 0..12 and max_len 3..20, and lists of 5000 ids
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    N = max_len - 3  # room for the two segments
    na, nb = len(ids_a), len(ids_b)
    if na + nb > N:
        shorter = min(na, nb)
        if shorter <= N - shorter:  # the shorter segment survives whole; the longer gives up the rest
            na, nb = (na, N - na) if na < nb else (N - nb, nb)
        else:  # both are cut down to halves, B first on ties: A keeps the odd token
            na, nb = (N + 1) // 2, N // 2
    real = [CLS_ID, *ids_a[:na], SEP_ID, *ids_b[:nb], SEP_ID]
    input_ids = torch.full((max_len,), PAD_ID, dtype=torch.long)
    input_ids[: len(real)] = torch.tensor(real, dtype=torch.long)
    attention_mask = (torch.arange(max_len) < len(real)).long()
    is_sep = (input_ids == SEP_ID).long()
    seps_before = torch.cumsum(is_sep, 0) - is_sep  # how many [SEP] precede each position
    token_type_ids = ((seps_before >= 1) & (attention_mask == 1)).long()
    return input_ids, token_type_ids, attention_mask
