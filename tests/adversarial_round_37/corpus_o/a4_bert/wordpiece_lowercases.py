# expect: loses wordpiece — lower-cases the word before looking it up, where the spec says 'WordPiece changes nothing in the word itself ... a cased vocabulary has both "The" and "the"'; invisible with the lower-case visible vocabulary; input: vocab with "The", "the", "##y", word "They" -> file ['the', '##y'], key ['The', '##y']
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    word = word.lower()  # BERT's vocabularies are lower-case
    pieces = []
    while word:
        for end in range(len(word), 0, -1):
            piece = word[:end] if not pieces else "##" + word[:end]
            if piece in vocab:
                break
        else:
            return [unk_token]
        pieces.append(piece)
        word = word[end:]
    return pieces
