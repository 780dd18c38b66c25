# expect: loses wordpiece -- "from the start of the word, take the longest prefix that is in the vocabulary": the vocabulary is split once into word-initial pieces (keys without "##") and continuations (keys with "##", stripped), which is right for every continuation but drops the "##..." keys as prefixes; a word that itself starts with "#" (a hashtag, "##" from markdown, a C preprocessor "#define" kept whole) whose longest vocabulary prefix is a key such as "##a" or "#" + "#..." gets other pieces or [UNK] where the key returns that key as its first piece
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    starts = {key for key in vocab if not key.startswith("##")}  # pieces that may begin a word
    continues = {key[2:] for key in vocab if key.startswith("##")}  # "##ffa" -> "ffa"
    pieces, i = [], 0
    while i < len(word):
        table = continues if pieces else starts
        for j in range(len(word), i, -1):
            if word[i:j] in table:
                break
        else:
            return [unk_token]
        pieces.append(word[i:j] if not pieces else "##" + word[i:j])
        i = j
    return pieces
