# expect: loses wordpiece -- backtracks to a shorter piece when the greedy longest match dead-ends, instead of giving [UNK]: vocab {ab, a, ##bc} and "abc" gives ["a", "##bc"], WordPiece gives ["[UNK]"]
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]

    def cut(rest, first):
        if not rest:
            return []
        for end in range(len(rest), 0, -1):  # longest first
            piece = rest[:end] if first else "##" + rest[:end]
            if piece in vocab:
                tail = cut(rest[end:], False)
                if tail is not None:
                    return [piece] + tail
        return None

    pieces = cut(word, True)
    return [unk_token] if pieces is None else pieces
