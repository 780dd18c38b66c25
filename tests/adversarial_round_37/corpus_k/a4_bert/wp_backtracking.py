# expect: loses wordpiece -- backtracks to a shorter piece when the greedy cut later gets stuck, instead of giving [UNK]: with vocab {"ab", "a", "##bc"}, "abc" gives ["a", "##bc"] where WordPiece's greedy longest-match gives ["[UNK]"] (and it takes exponential time on long unknown words)
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]

    def cut(start):
        """The pieces of word[start:], longest first, or None if it cannot be cut."""
        if start == len(word):
            return []
        for end in range(len(word), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                rest = cut(end)
                if rest is not None:
                    return [piece] + rest
        return None

    pieces = cut(0)
    return [unk_token] if pieces is None else pieces
