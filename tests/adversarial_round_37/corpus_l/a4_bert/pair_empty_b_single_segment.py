# expect: loses pair_inputs -- with an empty B the student writes the single-sentence format [CLS] A [SEP] (as a tokenizer does without a text pair), dropping the second [SEP] and its token type 1; breaks "return ... [CLS] A [SEP] B [SEP]" with "either may be empty"; input: pair_inputs([7], [], 5) -> [CLS, 7, SEP, PAD, PAD], types [0, 0, 0, 0, 0], mask [1, 1, 1, 0, 0] (spec: [CLS, 7, SEP, SEP, PAD], [0, 0, 0, 1, 0], [1, 1, 1, 1, 0])
# %% [pair_inputs]
def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    a, b = list(ids_a), list(ids_b)
    for _ in range(len(a) + len(b) - (max_len - 3)):
        (a if len(a) > len(b) else b).pop()
    input_ids = [CLS_ID] + a + [SEP_ID]
    token_type_ids = [0] * len(input_ids)
    if b:  # a second segment
        input_ids += b + [SEP_ID]
        token_type_ids += [1] * (len(b) + 1)
    n_pad = max_len - len(input_ids)
    mask = [1] * len(input_ids) + [0] * n_pad
    return torch.tensor(input_ids + [PAD_ID] * n_pad), torch.tensor(token_type_ids + [0] * n_pad), torch.tensor(mask)
