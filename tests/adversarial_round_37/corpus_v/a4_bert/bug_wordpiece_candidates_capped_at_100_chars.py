# expect: loses wordpiece -- the candidate pieces are tried from at most 100 characters down (a fixed window, BERT's default max_chars), not from the whole rest of the word: with max_chars above 100 and a vocabulary piece longer than 100 characters, the longest match is never tried: vocab {"a"*150, "a", "##a"}, wordpiece("a"*150, vocab, max_chars=200) -> 150 pieces ["a", "##a", ...], the key ["a"*150]; every word of at most 100 characters, every vocabulary of pieces up to 100 characters (the long case's 1,100-piece word included) agrees
# %% [wordpiece]
WINDOW = 100  # no WordPiece vocabulary has pieces longer than a word may be


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        for end in range(min(len(word), start + WINDOW), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
        else:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
