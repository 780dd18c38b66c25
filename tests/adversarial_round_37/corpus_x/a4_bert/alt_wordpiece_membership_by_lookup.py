# expect: full marks -- EAFP lookup is a right reading of a dict; a defaultdict, whose [] never raises, is not the plain dict the spec passes (relabelled from loses wordpiece); was: loses wordpiece -- "`vocab` is a dict piece -> id (only its keys matter here)" and "it changes none of its arguments in place": membership is tested by looking the piece up and catching KeyError (`vocab[piece]`), which is the same as `piece in vocab` for a plain dict but not for a dict that supplies missing keys (a `collections.defaultdict` mapping unknown pieces to the [UNK] id, as some tokenizers keep their vocabularies): there every lookup succeeds, so the whole word comes back as one piece (never [UNK]), and each lookup inserts the piece into the caller's vocabulary
# %% [wordpiece]
def _known(vocab, piece):
    try:
        vocab[piece]
    except KeyError:
        return False
    return True


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces = []
    while word:
        for end in range(len(word), 0, -1):
            piece = word[:end] if not pieces else "##" + word[:end]
            if _known(vocab, piece):
                break
        else:
            return [unk_token]
        pieces.append(piece)
        word = word[end:]
    return pieces
