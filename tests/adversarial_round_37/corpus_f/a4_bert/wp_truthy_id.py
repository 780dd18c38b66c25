# expect: loses wordpiece -- tests membership with vocab.get(piece), which is falsy for a piece whose id is 0, so that piece is treated as missing; spec: "vocab is a dict piece -> id (only its keys matter here)"
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            candidate = ("##" if start > 0 else "") + word[start:end]
            if vocab.get(candidate):
                pieces.append(candidate)
                start = end
                break
        else:
            return [unk_token]
    return pieces
