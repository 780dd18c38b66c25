# expect: full marks -- style: two character tries (word-initial pieces and "##" continuations) built from the vocabulary on each call, the longest match found by walking the trie once per piece (no slicing loop), iterative, code points as Python indexes them
# %% [wordpiece]
def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):
    """The pieces of one word under vocab (a dict piece -> id), greedily, longest match first: a list of str."""
    if len(word) > max_chars:
        return [unk_token]
    END = object()
    starts, conts = {}, {}
    for piece in vocab:
        for root, body in ((starts, piece), (conts, piece[2:] if piece.startswith("##") else None)):
            if body is None or body == "":
                continue
            node = root
            for ch in body:
                node = node.setdefault(ch, {})
            node[END] = True
    pieces, i = [], 0
    while i < len(word):
        node, best = (starts if i == 0 else conts), None
        j = i
        while j < len(word) and word[j] in node:
            node = node[word[j]]
            j += 1
            if END in node:
                best = j
        if best is None:
            return [unk_token]
        pieces.append(word[i:best] if i == 0 else "##" + word[i:best])
        i = best
    return pieces
