# expect: loses wordpiece  -- measures the word in UTF-8 bytes (len(word.encode())), so a non-ASCII word of <= max_chars characters but more bytes becomes [UNK]; spec: "A word longer than max_chars characters (BERT: 100) becomes [unk_token] too, without being looked up"
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word.encode("utf-8")) > max_chars:  # too long: not looked up
        return [unk_token]
    pieces = []
    i = 0
    while i < len(word):
        for j in range(len(word), i, -1):
            cand = ("##" if i > 0 else "") + word[i:j]
            if cand in vocab:
                pieces.append(cand)
                i = j
                break
        else:
            return [unk_token]
    return pieces
