# expect: loses wordpiece -- caches the longest piece length per vocabulary keyed by len(vocab): after a call with the test vocabulary, another vocabulary of the same size with a longer piece is cut too short (test pieces with "una" renamed "unaffable": "unaffable" gives ["un", "##aff", "##able"], not ["unaffable"])
# %% [wordpiece]
_LONGEST = {}  # len(vocab) -> length of its longest piece (without ##)


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    key = len(vocab)
    if key not in _LONGEST:
        _LONGEST[key] = max(len(p[2:]) if p.startswith("##") else len(p) for p in vocab)
    longest = _LONGEST[key]
    pieces, start = [], 0
    while start < len(word):
        for end in range(min(len(word), start + longest), start, -1):  # never try a piece longer than any in vocab
            piece = ("##" if start else "") + word[start:end]
            if piece in vocab:
                pieces.append(piece)
                start = end
                break
        else:
            return [unk_token]
    return pieces
