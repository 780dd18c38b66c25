# expect: loses wordpiece -- normalises the word to NFC first (unicodedata.normalize), "so that é is always one character"; a decomposed word (e + U+0301, as NFD text and many vocabularies' accent handling give) is then looked up in another form than the vocabulary's, and its max_chars length changes too. Breaks "WordPiece changes nothing in the word itself" and "text as it comes, composed or decomposed Unicode (NFC or NFD)"; input: word = "cafe\u0301" (NFD), vocab {"[UNK]", "caf", "##e", "##\u0301"} -> key ["caf", "##e", "##\u0301"], this answer ["[UNK]"] (NFC "café" needs "##é")
# %% [wordpiece]
import unicodedata


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    word = unicodedata.normalize("NFC", word)  # one code point per accented letter
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
        else:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
