# expect: loses wordpiece -- lower-cases the word before looking it up ('BERT is uncased'); breaks 'WordPiece changes nothing in the word itself: lower-casing ... happened before, and a cased vocabulary has both "The" and "the"'; input: wordpiece("The", {"The": 0, "the": 1}) -> key ["The"], this ["the"]; wordpiece("Zed", {"Zed": 0}) -> key ["Zed"], this ["[UNK]"]
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    word = word.lower()  # BERT's vocabulary is lower-case
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
