# expect: loses mask_tokens -- excludes [CLS], [SEP], [PAD] and [MASK] by name, as a tokenizer's special_tokens_mask does, and forgets [UNK]: an [UNK] in the input can be chosen, relabelled with UNK_ID and masked; the visible tests have no [UNK]; spec: "never a special token: `[CLS]`, `[SEP]`, `[PAD]`, `[UNK]` and `[MASK]` (the ids below `N_SPECIAL`) are never chosen"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    special = torch.zeros(input_ids.shape, dtype=torch.bool)
    for special_id in (CLS_ID, SEP_ID, PAD_ID, MASK_ID):  # the tokens the tokenizer adds
        special |= input_ids == special_id
    probs = torch.full(input_ids.shape, mask_prob).masked_fill(special, 0.0)
    chosen = torch.bernoulli(probs, generator=generator).bool()
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    to_mask = torch.bernoulli(torch.full(input_ids.shape, 0.8), generator=generator).bool() & chosen
    to_random = torch.bernoulli(torch.full(input_ids.shape, 0.5), generator=generator).bool() & chosen & ~to_mask
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels
