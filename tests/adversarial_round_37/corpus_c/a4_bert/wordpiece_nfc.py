# expect: loses wordpiece -- NFC-normalises the word before the look-up (a decomposed "é" becomes one code point and is cut as that); spec: "WordPiece changes nothing in the word itself"
# %% [wordpiece]
import unicodedata


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    word = unicodedata.normalize("NFC", word)  # one spelling per character
    if len(word) > max_chars:
        return [unk_token]
    pieces = []
    while word:
        for end in range(len(word), 0, -1):
            piece = word[:end] if not pieces else "##" + word[:end]
            if piece in vocab:
                break
        else:
            return [unk_token]
        pieces.append(piece)
        word = word[end:]
    return pieces
