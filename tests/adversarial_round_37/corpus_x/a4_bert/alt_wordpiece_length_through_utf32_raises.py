# expect: full marks -- a lone surrogate is a code point, not a character: the spec's text is characters (relabelled from loses wordpiece); was: loses wordpiece -- "A word longer than `max_chars` characters (`len(word)`: code points, as the word comes ...)" and "any characters": the length is counted as the number of UTF-32 code units, `len(word.encode("utf-32-le")) // 4`, to be sure that characters outside the BMP count once; it does (the same count as len(word) for every encodable word), but str.encode refuses a lone surrogate (a code point U+D800..U+DFFF, which a Python str may hold: JSON's "\ud83d" alone, os.fsdecode's surrogateescape), so such a word raises UnicodeEncodeError where the key returns its pieces or [UNK]
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    n_chars = len(word.encode("utf-32-le")) // 4  # code points, whatever the plane
    if n_chars > max_chars:
        return [unk_token]
    pieces, rest = [], word
    while rest:
        for end in range(len(rest), 0, -1):
            piece = ("##" if pieces else "") + rest[:end]
            if piece in vocab:
                break
        else:
            return [unk_token]
        pieces.append(piece)
        rest = rest[end:]
    return pieces
