# expect: loses wordpiece -- the length limit counts UTF-8 bytes, not characters: a word of at most max_chars characters with non-ASCII letters (e.g. "é" * 60, 120 bytes, with "é" and "##é" in the vocabulary) becomes [UNK] instead of its pieces
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word.encode("utf-8")) > max_chars:  # BERT's limit on the word's size
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start:
            piece = ("##" if start > 0 else "") + word[start:end]
            if piece in vocab:
                break
            end -= 1
        if end == start:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
