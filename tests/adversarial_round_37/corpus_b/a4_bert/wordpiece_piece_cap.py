# expect: loses wordpiece -- only tries candidates of at most 64 characters (a speed cap), so a longer vocabulary piece is never matched and a long in-vocabulary word is cut up or becomes [UNK]; spec: "from the start of the word, take the longest prefix that is in the vocabulary"
# %% [wordpiece]
MAX_PIECE_CHARS = 64  # no real vocabulary piece is longer


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        for end in range(min(len(word), start + MAX_PIECE_CHARS), start, -1):
            piece = ("##" if start else "") + word[start:end]
            if piece in vocab:
                break
        else:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
