# expect: loses mask_tokens -- the special tokens listed by hand as (CLS_ID, SEP_ID, PAD_ID), the ones a tokenizer adds, so [UNK] and [MASK] already in the text may be chosen; the spec: "never a special token: [CLS], [SEP], [PAD], [UNK] and [MASK] (the ids below N_SPECIAL) are never chosen"; ids [[CLS, UNK, 7, MASK, SEP]], vocab 30, mask_prob 1, seed 0: key labels [-100, -100, 7, -100, -100], answer [-100, 1, 7, 4, -100]; inputs without UNK or MASK (every visible case): equal
# %% [mask_tokens]
SPECIAL_IDS = (CLS_ID, SEP_ID, PAD_ID)  # the tokens the tokenizer adds around and after the text


def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    special = torch.zeros_like(input_ids, dtype=torch.bool)
    for token in SPECIAL_IDS:
        special |= input_ids == token
    probs = torch.full(input_ids.shape, mask_prob).masked_fill(special, 0.0)
    chosen = torch.bernoulli(probs, generator=generator).bool()
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    to_mask = torch.bernoulli(torch.full(input_ids.shape, 0.8), generator=generator).bool() & chosen
    to_random = torch.bernoulli(torch.full(input_ids.shape, 0.5), generator=generator).bool() & chosen & ~to_mask
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = torch.where(to_random, random_ids, input_ids.masked_fill(to_mask, MASK_ID))
    return masked_ids, labels
