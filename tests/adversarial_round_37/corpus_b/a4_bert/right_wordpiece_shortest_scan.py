# expect: full marks -- a different equivalent algorithm: scans candidate ends from short to long and remembers the longest piece found (instead of trying the longest first)
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        prefix = "##" if start > 0 else ""
        best = None
        for end in range(start + 1, len(word) + 1):
            if prefix + word[start:end] in vocab:
                best = end  # a longer match replaces a shorter one
        if best is None:
            return [unk_token]
        pieces.append(prefix + word[start:best])
        start = best
    return pieces
