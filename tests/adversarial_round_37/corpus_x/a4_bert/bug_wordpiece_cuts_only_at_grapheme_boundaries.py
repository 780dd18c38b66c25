# expect: loses wordpiece -- WordPiece takes "the longest prefix that is in the vocabulary" and "from where it ends, the longest continuation" over the word's code points ("text as it comes, composed or decomposed Unicode (NFC or NFD), any characters"): this version never ends a piece just before a mark (a character of Unicode category M: combining accents of NFD text, but also the vowel signs of Devanagari, Bengali, Thai, ...), so that a base letter and its marks stay together; where the vocabulary has the base letter and the mark as separate pieces ("e" and "##\u0301", "क" and "##ि") and not the pair, the key cuts between them and this returns [UNK] or a shorter match
# %% [wordpiece]
import unicodedata


def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    # a piece may end at the end of the word, or before any character that is not a mark
    can_end = [unicodedata.category(c)[0] != "M" for c in word[1:]] + [True]
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):
            if not can_end[end - 1]:
                continue
            piece = word[start:end] if not pieces else "##" + word[start:end]
            if piece in vocab:
                break
        else:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
