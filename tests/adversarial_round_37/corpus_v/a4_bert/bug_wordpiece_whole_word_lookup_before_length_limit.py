# expect: loses wordpiece -- a shortcut returns a word found whole in the vocabulary before the max_chars check, so an over-long word that is itself a vocabulary entry comes back as one piece, not [unk_token]: vocab with "abcdef", wordpiece("abcdef", vocab, max_chars=3) -> ["abcdef"], the key ["[UNK]"]; over-long words built of pieces, and every word within the limit, agree
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if word in vocab:  # the longest match of all: the whole word
        return [word]
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
            end -= 1
        else:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
