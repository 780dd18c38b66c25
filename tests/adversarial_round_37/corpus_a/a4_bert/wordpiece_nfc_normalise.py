# expect: loses wordpiece  -- NFC-normalises the word before looking it up, so a decomposed (NFD) word whose pieces are in the vocabulary in NFD form becomes [UNK] (and pieces come back changed); spec: "WordPiece changes nothing in the word itself: lower-casing, for an uncased vocabulary, happened before"
# %% [wordpiece]
import unicodedata


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    word = unicodedata.normalize("NFC", word)  # one canonical form for accented letters
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                break
            end -= 1
        if end == start:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
