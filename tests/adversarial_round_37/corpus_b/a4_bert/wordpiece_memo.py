# expect: loses wordpiece -- memoises results in a module-level dict keyed by (word, unk_token, max_chars) but not by vocab, so a second vocabulary gets the first one's pieces; spec: "The pieces of one word under vocab ... take the longest prefix that is in the vocabulary"
# %% [wordpiece]
_cache = {}


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    key = (word, unk_token, max_chars)
    if key in _cache:  # frequent words are cut once
        return list(_cache[key])
    if len(word) > max_chars:
        result = [unk_token]
    else:
        result, rest = [], word
        while rest:
            for end in range(len(rest), 0, -1):
                piece = rest[:end] if not result else "##" + rest[:end]
                if piece in vocab:
                    break
            else:
                result = [unk_token]
                break
            result.append(piece)
            rest = rest[end:]
    _cache[key] = list(result)
    return result
