# expect: loses wordpiece -- caches the longest piece length of the first vocabulary it sees (a function attribute) and never tries longer candidates with a later vocabulary
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    if not hasattr(wordpiece, "longest"):  # no piece is longer than this: no need to try longer candidates
        wordpiece.longest = max(len(piece[2:] if piece.startswith("##") else piece) for piece in vocab)
    pieces, start = [], 0
    while start < len(word):
        end = min(len(word), start + wordpiece.longest)
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
