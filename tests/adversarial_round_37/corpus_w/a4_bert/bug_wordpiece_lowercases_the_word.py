# expect: loses wordpiece -- "WordPiece changes nothing in the word itself: lower-casing, for an uncased vocabulary, happened before, and a cased vocabulary has both "The" and "the"": this version lower-cases the word before matching, so with a cased vocabulary "The" becomes ["the"] (or [UNK] when only "The" is in it) instead of ["The"]; every visible word is already lower case
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    word = word.lower()  # BERT's vocabulary is uncased
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
        else:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
