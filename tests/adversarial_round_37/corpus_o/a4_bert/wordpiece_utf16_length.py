# expect: loses wordpiece — measures the word against max_chars in UTF-16 code units (len(word.encode("utf-16-le")) // 2), so every character outside the Basic Multilingual Plane (emoji, mathematical letters, many CJK extension ideographs) counts twice and a word of 51..100 such characters becomes [UNK] without being looked up; the spec: 'len(word): code points, as the word comes'; input: vocab with "\U0001F600" and "##\U0001F600", word = "\U0001F600" * 60 -> file ['[UNK]'], key 60 pieces
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word.encode("utf-16-le")) // 2 > max_chars:  # the length as the tokenizer's text buffers count it
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start:
            piece = ("##" if start else "") + word[start:end]
            if piece in vocab:
                break
            end -= 1
        else:
            return [unk_token]
        pieces.append(piece)
        start = end
    return pieces
