# expect: loses wordpiece -- membership tested with `if vocab.get(candidate):`, which treats a piece whose id is 0 as missing; in the visible vocabulary id 0 is [PAD], never a piece of a word, so nothing shows; breaks "vocab is a dict piece -> id (only its keys matter here)"; input: wordpiece("ab", {"a": 0, "##b": 1}) -> ["[UNK]"] (spec: ["a", "##b"])
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        end, found = len(word), None
        while end > start:
            candidate = word[start:end] if start == 0 else "##" + word[start:end]
            if vocab.get(candidate):
                found = candidate
                break
            end -= 1
        if found is None:
            return [unk_token]
        pieces.append(found)
        start = end
    return pieces
