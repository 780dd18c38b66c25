# expect: loses wordpiece -- bounds every candidate by the longest piece that starts a word (a speed-up: no candidate longer than that can match), but a continuation's bound is its own: a vocabulary whose "##" piece is longer than every word-initial piece (e.g. {"a", "##bcdefghij"} for "abcdefghij") gets [UNK] instead of ["a", "##bcdefghij"]; spec: "from where it ends, the longest continuation whose `"##" + piece` is in the vocabulary; and so on to the end of the word"
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    longest = max(len(piece) for piece in vocab if not piece.startswith("##"))  # no match can be longer
    pieces = []
    while word:  # what is left of the word
        for end in range(min(len(word), longest), 0, -1):  # the longest candidate first
            piece = word[:end] if not pieces else "##" + word[:end]  # a continuation is written ##...
            if piece in vocab:
                break
        else:
            return [unk_token]  # nothing fits here: the whole word is unknown
        pieces.append(piece)
        word = word[end:]
    return pieces
