# expect: loses wordpiece -- a recursive longest-match (one Python call per piece), so a word of more than ~1000 pieces raises RecursionError; breaks 'no fixed limit on its length (the tests go past every usual buffer)'; input: wordpiece("a" * 1500, {"a": 0, "##a": 1}, max_chars=2000) -> key 1500 pieces, this RecursionError
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]

    def pieces_of(rest, first):
        """The pieces of what is left of the word, or None if some part fits no piece."""
        if not rest:
            return []
        for end in range(len(rest), 0, -1):  # the longest candidate first
            piece = rest[:end] if first else "##" + rest[:end]
            if piece in vocab:
                tail = pieces_of(rest[end:], False)
                return None if tail is None else [piece] + tail
        return None

    pieces = pieces_of(word, True)
    return [unk_token] if pieces is None else pieces
