# expect: loses wordpiece  -- the first piece may not be a vocabulary key that starts with "##" (read as "continuation pieces cannot start a word"), but part 1's rule is the longest prefix that is in the vocabulary, whatever it looks like (as BERT's and Hugging Face's WordPiece do); word "##b" with vocab {"a": 0, "##b": 1}: the key (and the tokenizers library's WordPiece model) gives ["##b"], the answer ["[UNK]"]; "##ing" with {"#", "##ing", "##i", "##n", "##g", "###"}: key ["##ing"], answer ["#", "###", "##ing"]; words that do not start with "##": equal
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    pieces, start = [], 0
    while start < len(word):
        for end in range(len(word), start, -1):  # the longest candidate first
            if start == 0:
                piece = word[:end]
                found = piece in vocab and not piece.startswith("##")  # "##..." pieces only continue a word
            else:
                piece = "##" + word[start:end]
                found = piece in vocab
            if found:
                break
        else:
            return [unk_token]  # nothing fits here: the whole word is unknown
        pieces.append(piece)
        start = end
    return pieces
