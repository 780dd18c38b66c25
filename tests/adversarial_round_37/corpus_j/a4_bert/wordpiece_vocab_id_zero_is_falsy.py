# expect: loses wordpiece -- tests membership with `if vocab.get(piece):`, so a piece whose id is 0 counts as missing (the spec: only the keys matter): vocab {"un": 0, "##able": 1}, wordpiece("unable", vocab) gives ["[UNK]"] instead of ["un", "##able"]
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    tokens = []
    start = 0
    while start < len(word):
        end = len(word)
        cur = None
        while start < end:
            substr = word[start:end]
            if start > 0:
                substr = "##" + substr
            if vocab.get(substr):
                cur = substr
                break
            end -= 1
        if cur is None:
            return [unk_token]
        tokens.append(cur)
        start = end
    return tokens
