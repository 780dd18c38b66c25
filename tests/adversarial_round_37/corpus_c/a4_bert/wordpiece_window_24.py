# expect: loses wordpiece -- looks only at candidates of at most 24 characters (a fixed window), so a longer piece of the vocabulary is never matched; spec: "take the longest prefix that is in the vocabulary"
# %% [wordpiece]
MAX_PIECE = 24  # no piece of a real vocabulary is longer


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        for end in range(min(len(word), start + MAX_PIECE), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
        else:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
