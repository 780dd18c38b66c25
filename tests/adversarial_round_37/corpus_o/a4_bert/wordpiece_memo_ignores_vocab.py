# expect: loses wordpiece — memoises results in a module-level dict keyed by (word, unk_token, max_chars) but not by the vocabulary, so a word tokenized once under one vocabulary returns the same pieces under another: state kept between calls; input: wordpiece("unaffable", vocab1) with the visible vocabulary, then wordpiece("unaffable", {"un": 0, "##aff": 1, "##able": 2}) -> file ['una', '##ffa', '##ble'] (stale), key ['un', '##aff', '##able']
# %% [wordpiece]
_PIECES = {}


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    key = (word, unk_token, max_chars)
    if key in _PIECES:
        return list(_PIECES[key])
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
    _PIECES[key] = list(result)
    return result
