# expect: loses wordpiece -- measures the word's length in UTF-8 bytes (len(word.encode())) for the max_chars cut; breaks 'A word longer than max_chars characters (len(word): code points, as the word comes)'; input: wordpiece("\u00e9" * 60, {"\u00e9": 0, "##\u00e9": 1}) -> key 60 pieces ['\u00e9', '##\u00e9', ...], this ['[UNK]'] (120 bytes > 100)
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word.encode("utf-8")) > max_chars:  # the word's size
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
