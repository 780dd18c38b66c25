# expect: loses wordpiece (a piece is looked up with `if vocab.get(piece):`, so a piece whose id is 0 counts as absent: vocab {"ab": 0, "a": 1, "##b": 2}, word "ab" gives ["a", "##b"] where the key gives ["ab"]; a piece with id 0 that no word uses (the visible tests' [PAD]) changes nothing)
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if vocab.get(piece):  # found in the vocabulary
                break
            end -= 1
        if end == start:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
