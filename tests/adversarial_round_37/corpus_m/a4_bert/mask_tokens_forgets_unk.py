# expect: loses mask_tokens -- lists the special tokens it protects as [CLS], [SEP], [PAD] and [MASK] and forgets [UNK], so [UNK] positions can be chosen (labelled and replaced); breaks 'never a special token: [CLS], [SEP], [PAD], [UNK] and [MASK] (the ids below N_SPECIAL) are never chosen'; input: mask_tokens(torch.tensor([[CLS_ID, UNK_ID, 7, UNK_ID, SEP_ID]]), 30, seed=0, mask_prob=1.0) -> key labels [-100, -100, 7, -100, -100], this labels the two UNK_ID positions 1 (the visible tests have no [UNK])
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    probs = torch.full(input_ids.shape, mask_prob)
    special = (input_ids == CLS_ID) | (input_ids == SEP_ID) | (input_ids == PAD_ID) | (input_ids == MASK_ID)
    probs[special] = 0.0  # special tokens and padding are never chosen
    chosen = torch.bernoulli(probs, generator=generator).bool()
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    to_mask = torch.bernoulli(torch.full(input_ids.shape, 0.8), generator=generator).bool() & chosen
    # half of the remaining 20%: 10% of the chosen become a random ordinary token
    to_random = torch.bernoulli(torch.full(input_ids.shape, 0.5), generator=generator).bool() & chosen & ~to_mask
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels
