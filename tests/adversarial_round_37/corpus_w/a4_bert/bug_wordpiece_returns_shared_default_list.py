# expect: loses wordpiece -- "Return the list of pieces": the list is a mutable default argument cleared and refilled at every call, so every call returns the same list object and a caller's earlier result is overwritten by the next call (pieces_a = wordpiece("unaffable", v); wordpiece("un", v) -> pieces_a is now ["un"]); each visible test reads its result before the next call
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100, _pieces=[]):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    _pieces.clear()  # reuse one list: no allocation per word
    if len(word) > max_chars:
        _pieces.append(unk_token)
        return _pieces
    start = 0
    while start < len(word):
        for end in range(len(word), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
        else:
            _pieces.clear()
            _pieces.append(unk_token)
            return _pieces
        _pieces.append(piece)
        start = end
    return _pieces
