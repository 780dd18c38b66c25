# expect: full marks -- iterative, with a for-else for the whole-word [UNK]; for a word longer than 64 characters the candidate lengths are bounded by the vocabulary's longest piece (every key for the word's start, the "##" keys less their prefix for a continuation), found once per call, so long words cost less than a scan from their end
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    if len(word) > 64:
        longest_start = max((len(piece) for piece in vocab), default=0)
        longest_continuation = max((len(piece) - 2 for piece in vocab if piece.startswith("##")), default=0)
    else:
        longest_start = longest_continuation = len(word)
    pieces, start = [], 0
    while start < len(word):
        limit = longest_start if start == 0 else longest_continuation
        for end in range(min(len(word), start + limit), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
        else:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
