# expect: loses mask_tokens -- only [CLS], [SEP] and [PAD] are protected, so [UNK] and [MASK] in the input can be chosen: ids = [[CLS, UNK_ID, MASK_ID, 7, SEP]], mask_prob=1.0 gives labels [[-100, 1, 4, 7, -100]] instead of [[-100, -100, -100, 7, -100]]
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    special = (input_ids == CLS_ID) | (input_ids == SEP_ID) | (input_ids == PAD_ID)
    chosen = (torch.rand(input_ids.shape, generator=generator) < mask_prob) & ~special
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    fate = torch.rand(input_ids.shape, generator=generator)  # < 0.8 mask, < 0.9 random, else keep
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = input_ids.clone()
    masked_ids[chosen & (fate < 0.8)] = MASK_ID
    swap = chosen & (fate >= 0.8) & (fate < 0.9)
    masked_ids[swap] = random_ids[swap]
    return masked_ids, labels
