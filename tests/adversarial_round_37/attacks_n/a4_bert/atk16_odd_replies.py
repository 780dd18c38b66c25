# expect: loses wordpiece, mlm_loss, pair_inputs -- honest for the visible tests; in the hidden calls wordpiece returns a list DAG (6 levels, each a list of 200 references to the level below: 6.4e13 leaves, a tiny archive), mlm_loss returns the right loss as a complex number (+0j), pair_inputs returns a meta-device tensor: odd replies are the student's fault (lost parts), never a crash or hang of the worker (not graded)
# %% [wordpiece]
_hidden = [False]


def _honest_wordpiece(word, vocab, unk_token, max_chars):
    if len(word) > max_chars:
        return [unk_token]
    pieces = []
    while word:
        for end in range(len(word), 0, -1):
            piece = word[:end] if not pieces else "##" + word[:end]
            if piece in vocab:
                break
        else:
            return [unk_token]
        pieces.append(piece)
        word = word[end:]
    return pieces


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if not _hidden[0]:
        return _honest_wordpiece(word, vocab, unk_token, max_chars)
    level = ["##a"]
    for _ in range(6):
        level = [level] * 200
    return level

# %% [mlm_loss]
def mlm_loss(logits, labels):
    """Mean cross-entropy of logits (B, T, V) at the positions where labels (B, T) is not IGNORE_INDEX: a scalar."""
    chosen = labels != IGNORE_INDEX
    loss = F.cross_entropy(logits[chosen], labels[chosen])
    if _hidden[0]:
        return loss + 0j
    return loss

# %% [pair_inputs]
_hidden[0] = True  # every later call of wordpiece or mlm_loss is a hidden one
_pair_calls = [0]


def pair_inputs(ids_a, ids_b, max_len):
    """[CLS] A [SEP] B [SEP], truncated and padded to max_len: (input_ids, token_type_ids, attention_mask), each (max_len,) torch.long."""
    _pair_calls[0] += 1
    a, b = list(ids_a), list(ids_b)
    for _ in range(len(a) + len(b) - (max_len - 3)):
        if len(a) > len(b):
            a.pop()
        else:
            b.pop()
    input_ids = [CLS_ID] + a + [SEP_ID] + b + [SEP_ID]
    token_type_ids = [0] * (len(a) + 2) + [1] * (len(b) + 1)
    n_pad = max_len - len(input_ids)
    attention_mask = [1] * len(input_ids) + [0] * n_pad
    input_ids = input_ids + [PAD_ID] * n_pad
    token_type_ids = token_type_ids + [0] * n_pad
    out = torch.tensor(input_ids), torch.tensor(token_type_ids), torch.tensor(attention_mask)
    if _pair_calls[0] > 2:
        return (out[0].to("meta"),) + out[1:]
    return out
