# expect: loses mask_tokens -- excludes only [CLS], [SEP] and [PAD] from the choice, so [UNK] and [MASK] tokens already in the input can be chosen (and replaced); spec: "never a special token: [CLS], [SEP], [PAD], [UNK] and [MASK] (the ids below N_SPECIAL) are never chosen"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    special = (input_ids == CLS_ID) | (input_ids == SEP_ID) | (input_ids == PAD_ID)
    chosen = (torch.rand(input_ids.shape, generator=generator) < mask_prob) & ~special
    fate = torch.rand(input_ids.shape, generator=generator)
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = input_ids.clone()
    masked_ids[chosen & (fate < 0.8)] = MASK_ID
    swap = chosen & (fate >= 0.8) & (fate < 0.9)
    masked_ids[swap] = random_ids[swap]
    labels = torch.full_like(input_ids, IGNORE_INDEX)
    labels[chosen] = input_ids[chosen]
    return masked_ids, labels
