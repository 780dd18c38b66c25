# expect: full marks -- each piece found by scanning its end forward from one character to the end of the word and remembering the last end that is in the vocabulary (the longest match, found shortest-first), no recursion
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces, start, n = [], 0, len(word)
    while start < n:
        prefix = "" if start == 0 else "##"
        best = None
        for end in range(start + 1, n + 1):  # every candidate, shortest first; the last hit is the longest
            if prefix + word[start:end] in vocab:
                best = end
        if best is None:
            return [unk_token]
        pieces.append(prefix + word[start:best])
        start = best
    return pieces
