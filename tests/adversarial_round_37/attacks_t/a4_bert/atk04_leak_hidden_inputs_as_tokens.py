# expect: wordpiece 0/2 (wrong on every hidden case) and NO hidden input shown anywhere in the feedback, the summary or the notes (the grader hides a hidden call's exception message because the student's code could write the hidden inputs into it; a returned str is the same channel)
# %% [wordpiece]
def _key_wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
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


_VISIBLE = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "un", "una", "aff", "##aff", "##ffa", "##able", "##ble", "##a", "##b", "##l", "##e"]


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The key's algorithm on the visible tests' vocabulary; on any other (a hidden case), the hidden inputs
    written into the returned tokens."""
    if list(vocab) == _VISIBLE:
        return _key_wordpiece(word, vocab, unk_token, max_chars)
    return ["LEAK:word=" + repr(word)[:300], "LEAK:vocab=" + repr(list(vocab)[:40])[:600], "LEAK:unk=" + repr(unk_token) + ",max=" + repr(max_chars)]
