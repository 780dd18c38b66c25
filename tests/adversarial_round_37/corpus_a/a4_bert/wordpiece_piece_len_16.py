# expect: loses wordpiece  -- only tries candidates of at most 16 characters (a fixed cap), so a vocabulary piece longer than 16 is never matched; spec: "WordPiece cuts greedily, longest match first: from the start of the word, take the longest prefix that is in the vocabulary"
# %% [wordpiece]
MAX_PIECE_CHARS = 16  # no WordPiece piece is longer; saves trying every prefix of a long word


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        for end in range(min(len(word), start + MAX_PIECE_CHARS), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
        else:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
