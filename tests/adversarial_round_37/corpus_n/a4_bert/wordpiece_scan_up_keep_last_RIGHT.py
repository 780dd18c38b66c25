# expect: full marks -- scans the candidates from the SHORTEST up and remembers the last one found in the vocabulary, which is the longest match (the key scans down and stops at the first); a position where none was found makes the whole word [unk_token]; max_chars checked on len(word) first; same pieces as the key on the visible vocabulary, random vocabularies and words (ids 0 included), unk_token/max_chars variants, words of 1 to 200 characters, text outside ASCII
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        prefix = "##" if start else ""
        best = None
        for end in range(start + 1, len(word) + 1):  # every candidate, shortest first
            if prefix + word[start:end] in vocab:
                best = end  # a longer match replaces a shorter one
        if best is None:
            return [unk_token]
        pieces.append(prefix + word[start:best])
        start = best
    return pieces
