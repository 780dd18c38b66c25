# expect: loses wordpiece -- measures the word in UTF-8 bytes, so a word of non-ASCII characters of at most max_chars characters becomes [UNK]; spec: "A word longer than max_chars characters (BERT: 100) becomes [unk_token]"
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word.encode("utf-8")) > max_chars:
        return [unk_token]
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
