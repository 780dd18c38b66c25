# expect: full marks -- bounds the candidates by the longest piece of the vocabulary itself (computed from vocab), scanning by start index
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    longest_start = max((len(k) for k in vocab if not k.startswith("##")), default=0)
    longest_cont = max((len(k) - 2 for k in vocab if k.startswith("##")), default=0)
    pieces, start = [], 0
    while start < len(word):
        window = longest_start if start == 0 else longest_cont
        found = None
        for end in range(min(len(word), start + window), start, -1):
            candidate = word[start:end] if start == 0 else "##" + word[start:end]
            if candidate in vocab:
                found = (candidate, end)
                break
        if found is None:
            return [unk_token]
        pieces.append(found[0])
        start = found[1]
    return pieces
