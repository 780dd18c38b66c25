# expect: loses wordpiece -- bounds the candidates by the longest word-initial piece of the vocabulary ('no piece is longer, so no longer candidate can match'), but a continuation piece may be longer than every initial piece: such pieces are never tried, and a word that needs one becomes [UNK] or is cut into shorter pieces; the visible vocabulary's longest initial piece is "[MASK]" (6 characters), longer than any of its continuations, so the visible tests pass; breaks 'from where it ends, the longest continuation whose "##" + piece is in the vocabulary'; input: wordpiece("abcdefgh", {"a": 0, "##bcdefgh": 1, "##b": 2, "##c": 3, "##d": 4, "##e": 5, "##f": 6, "##g": 7, "##h": 8}) -> ["a", "##b", ..., "##h"] (key: ["a", "##bcdefgh"])
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    longest = max((len(piece) for piece in vocab if not piece.startswith("##")), default=1)  # no piece is longer
    pieces, start = [], 0
    while start < len(word):
        for end in range(min(len(word), start + longest), start, -1):  # the longest candidate that can exist
            piece = ("##" if start else "") + word[start:end]
            if piece in vocab:
                break
        else:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
