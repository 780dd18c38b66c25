# expect: loses wordpiece -- a fast path returns [word] when the whole word is in the vocabulary, placed before the length check, so a word longer than max_chars that happens to be a vocabulary entry is returned as itself; breaks "A word longer than max_chars characters ... becomes [unk_token] too, without being looked up"; input: wordpiece("abcd", {"abcd": 5}, max_chars=3) -> ["abcd"] (spec: ["[UNK]"])
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if word in vocab:  # the common case: a whole word of the vocabulary
        return [word]
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            piece = ("##" if start > 0 else "") + word[start:end]
            if piece in vocab:
                break
        else:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
