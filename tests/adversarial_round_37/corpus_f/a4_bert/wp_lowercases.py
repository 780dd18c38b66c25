# expect: loses wordpiece -- lower-cases the word before looking it up ("BERT is uncased"), so with a cased vocabulary "The" becomes "the" (or [UNK] when only "The" is in the vocabulary); spec: "WordPiece changes nothing in the word itself: lower-casing, for an uncased vocabulary, happened before, and a cased vocabulary has both "The" and "the""
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    word = word.lower()  # BERT's vocabulary is uncased
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
            end -= 1
        if end == start:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
