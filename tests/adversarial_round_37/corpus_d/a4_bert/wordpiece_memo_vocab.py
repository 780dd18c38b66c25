# expect: loses wordpiece -- results are memoised on (word, unk_token, max_chars) but not on the vocabulary, so the same word under a second vocabulary gets the first vocabulary's pieces; spec: "`vocab` is a dict piece -> id ... Return the list of pieces" (under the vocab given)
# %% [wordpiece]
_PIECES = {}  # (word, unk_token, max_chars) -> pieces: tokenizing a corpus repeats words a lot


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    key = (word, unk_token, max_chars)
    if key in _PIECES:
        return list(_PIECES[key])
    if len(word) > max_chars:
        pieces = [unk_token]
    else:
        pieces, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in vocab:
                    break
                end -= 1
            if end == start:
                pieces = [unk_token]
                break
            pieces.append(piece)
            start = end
    _PIECES[key] = list(pieces)
    return pieces
