# expect: loses wordpiece -- lower-cases the word before cutting it ("BERT is uncased"): with a cased vocabulary "The" becomes ["the"] instead of ["The"], and a word whose capitals only a cased piece covers is cut differently or becomes [UNK]; spec: "WordPiece changes nothing in the word itself: lower-casing, for an uncased vocabulary, happened before, and a cased vocabulary has both `"The"` and `"the"`"
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    word = word.lower()  # the vocabulary is uncased
    if len(word) > max_chars:
        return [unk_token]
    pieces = []
    while word:  # what is left of the word
        for end in range(len(word), 0, -1):  # the longest candidate first
            piece = word[:end] if not pieces else "##" + word[:end]  # a continuation is written ##...
            if piece in vocab:
                break
        else:
            return [unk_token]  # nothing fits here: the whole word is unknown
        pieces.append(piece)
        word = word[end:]
    return pieces
