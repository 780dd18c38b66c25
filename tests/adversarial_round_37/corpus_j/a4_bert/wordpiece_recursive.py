# expect: loses wordpiece -- relabelled after corpus m (was a right answer): recursive longest-prefix search, one call per piece, so a word of more than about 1,000 pieces (max_chars raised to fit) raises RecursionError; the spec sets no limit on a word's length and now says the tests go past Python's recursion limit. Was: recursive longest-prefix search written with a generator expression and next(); None propagates an unknown piece up to a whole-word [UNK]
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""

    def cut(rest, prefix):
        if not rest:
            return []
        piece = next((prefix + rest[:n] for n in range(len(rest), 0, -1) if prefix + rest[:n] in vocab), None)
        if piece is None:
            return None
        tail = cut(rest[len(piece) - len(prefix):], "##")
        return None if tail is None else [piece] + tail

    if len(word) > max_chars:
        return [unk_token]
    pieces = cut(word, "")
    return [unk_token] if pieces is None else pieces
