# expect: full marks -- greedy longest match first, with the candidate lengths bounded per call by the vocabulary itself: a word-initial piece can be any key (a key "##x" matches a word that starts with "##x" literally), so its bound is the longest key of all; a continuation's bound is the longest key that starts with "##", less those two characters; lengths in code points as the word comes, nothing normalised, [UNK] for the whole word when nothing fits, max_chars checked first (0 allowed); nothing kept between calls
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    longest_start = max((len(key) for key in vocab), default=0)
    longest_more = max((len(key) - 2 for key in vocab if key.startswith("##")), default=0)
    out = []
    at = 0
    while at < len(word):
        bound = longest_start if not out else longest_more
        prefix = "##" if out else ""
        for end in range(min(len(word), at + bound), at, -1):
            if prefix + word[at:end] in vocab:
                out.append(prefix + word[at:end])
                at = end
                break
        else:
            return [unk_token]
    return out
