# expect: loses wordpiece -- tests membership with `if vocab.get(piece):`, i.e. by the truth of the piece's id, so a piece whose id is 0 counts as missing; in the visible vocabulary id 0 is "[PAD]", which no test word reaches, so they pass; breaks 'vocab is a dict piece -> id (only its keys matter here)'; input: wordpiece("ab", {"a": 0, "##b": 1}) -> ["[UNK]"] (key: ["a", "##b"])
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):  # the longest candidate first
            piece = ("##" if start else "") + word[start:end]
            if vocab.get(piece):  # a known piece
                break
        else:
            return [unk_token]  # nothing fits here: the whole word is unknown
        pieces.append(piece)
        start = end
    return pieces
