# expect: full marks -- at each start, lists every end whose piece (with "##" after the first) is in the vocabulary and takes the largest; no candidate list means [UNK] for the whole word; no backtracking, so the same greedy longest-match-first cut as the answer key, written with index arithmetic instead of slicing the word down; spec: "WordPiece cuts greedily, **longest match first** ... If at some point no piece fits (not even a single character), the **whole word** becomes `[unk_token]`"
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        prefix = "##" if start > 0 else ""
        ends = [end for end in range(start + 1, len(word) + 1) if prefix + word[start:end] in vocab]
        if not ends:
            return [unk_token]
        end = max(ends)  # the longest match
        pieces.append(prefix + word[start:end])
        start = end
    return pieces
