# expect: full marks -- greedy longest match first written as a search for the first hit in a generator: next() over the candidate ends from the longest down, with the marker prefixed as "##" * (a piece was already taken), and None (no piece fits) turning the whole word into unk_token; max_chars checked on len(word) first (0 allowed), nothing normalised, code points as the word comes, no recursion and nothing kept between calls (membership with `in`, which never changes the vocabulary)
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start != len(word):
        marker = "##" * (len(pieces) > 0)
        end = next((e for e in range(len(word), start, -1) if marker + word[start:e] in vocab), None)
        if end is None:
            return [unk_token]
        pieces.append(marker + word[start:end])
        start = end
    return pieces
