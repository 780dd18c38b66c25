# expect: loses wordpiece -- the hidden-test list says "text as it comes, composed or decomposed Unicode (NFC or NFD) ... a length is counted in characters", and the part: "WordPiece changes nothing in the word itself": this version NFC-normalises the word first, so a decomposed "e" + U+0301 is matched as the composed "é" (pieces the vocabulary of decomposed text may not have, or not the ones the key returns) and a decomposed word of max_chars + 1 code points that composes to max_chars is cut instead of becoming [UNK]; every visible word is plain ASCII
# %% [wordpiece]
import unicodedata


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    word = unicodedata.normalize("NFC", word)  # one code point per accented letter
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
        else:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
