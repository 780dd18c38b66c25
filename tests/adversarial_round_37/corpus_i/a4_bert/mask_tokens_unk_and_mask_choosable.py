# expect: loses mask_tokens -- excludes only [CLS], [SEP] and [PAD] from the choice: an [UNK] (1) or [MASK] (4) already in input_ids can be chosen, e.g. input_ids = tensor([[2, 1, 4, 7, 3]]), mask_prob=1.0 gives labels 1 and 4
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    special = (input_ids == CLS_ID) | (input_ids == SEP_ID) | (input_ids == PAD_ID)
    chosen = (torch.rand(input_ids.shape, generator=generator) < mask_prob) & ~special
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    fate = torch.rand(input_ids.shape, generator=generator)
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = input_ids.clone()
    masked_ids[chosen & (fate < 0.8)] = MASK_ID
    replace = chosen & (fate >= 0.8) & (fate < 0.9)
    masked_ids[replace] = random_ids[replace]
    return masked_ids, labels
