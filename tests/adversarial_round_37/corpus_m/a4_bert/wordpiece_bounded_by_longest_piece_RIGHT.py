# expect: full marks -- the same greedy longest-match, but each search starts at the length of the vocabulary's longest piece (no longer candidate can be in it): identical pieces for every word, vocabulary (empty too, cased, with '##' entries, non-BMP text) and max_chars, and much faster on long words
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    longest = max((len(piece) for piece in vocab), default=0)  # no candidate longer than this can match
    pieces, start = [], 0
    while start < len(word):
        prefix = "##" if start > 0 else ""
        end = min(len(word), start + longest - len(prefix))
        while end > start and prefix + word[start:end] not in vocab:
            end -= 1
        if end == start:  # not even one character fits here
            return [unk_token]
        pieces.append(prefix + word[start:end])
        start = end
    return pieces
