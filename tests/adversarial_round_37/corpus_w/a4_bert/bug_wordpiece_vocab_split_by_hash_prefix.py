# expect: loses wordpiece -- "A piece that starts a word is written as it is": the first piece is any vocabulary key equal to a prefix of the word, but this version splits the vocabulary once into word-initial keys (not starting with "##") and continuations (the "##" keys, stripped), so a word that itself begins with "##" (e.g. "##a", a non-empty str without spaces, with "##a" in the vocabulary) finds no first piece and becomes [UNK], where the key returns ["##a"]
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    starts = {piece for piece in vocab if not piece.startswith("##")}
    continuations = {piece[2:] for piece in vocab if piece.startswith("##")}
    pieces, start = [], 0
    while start < len(word):
        table = starts if start == 0 else continuations
        for end in range(len(word), start, -1):
            if word[start:end] in table:
                break
        else:
            return [unk_token]
        pieces.append(word[start:end] if start == 0 else "##" + word[start:end])
        start = end
    return pieces
