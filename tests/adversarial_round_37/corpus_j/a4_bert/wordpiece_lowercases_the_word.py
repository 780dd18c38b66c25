# expect: loses wordpiece -- lower-cases the word before cutting it, which the spec forbids (a cased vocabulary has "The" and "the"): vocab {"The", "the", "##y"}, wordpiece("They", vocab) gives ["the", "##y"] instead of ["The", "##y"]
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    word = word.lower()  # BERT's vocabulary is uncased
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        end = len(word)
        found = None
        while start < end:
            candidate = word[start:end] if start == 0 else "##" + word[start:end]
            if candidate in vocab:
                found = candidate
                break
            end -= 1
        if found is None:
            return [unk_token]
        pieces.append(found)
        start = end
    return pieces
