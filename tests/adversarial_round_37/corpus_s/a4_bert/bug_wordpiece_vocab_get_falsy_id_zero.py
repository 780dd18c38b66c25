# expect: loses wordpiece -- a piece is looked up with `if vocab.get(piece):`, which takes a piece whose id is 0 for a missing one; the spec: "vocab is a dict piece -> id (only its keys matter here)"; vocab {"a": 0, "##b": 1}: "a" key ["a"], answer ["[UNK]"]; "ab" key ["a", "##b"], answer ["[UNK]"]; every piece with a non-zero id: equal
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        end, found = len(word), None
        while end > start:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if vocab.get(piece):
                found = piece
                break
            end -= 1
        if found is None:
            return [unk_token]
        pieces.append(found)
        start = end
    return pieces
