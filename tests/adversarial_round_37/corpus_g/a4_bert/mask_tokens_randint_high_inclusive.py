# expect: loses mask_tokens -- random replacement ids drawn with randint(N_SPECIAL, vocab_size - 1): randint's high is exclusive, so the last id vocab_size - 1 is never drawn
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    ordinary = input_ids >= N_SPECIAL
    chosen = (torch.rand(input_ids.shape, generator=generator) < mask_prob) & ordinary
    fate = torch.rand(input_ids.shape, generator=generator)
    to_mask = chosen & (fate < 0.8)
    to_random = chosen & (fate >= 0.8) & (fate < 0.9)
    random_ids = torch.randint(N_SPECIAL, vocab_size - 1, input_ids.shape, generator=generator)  # ids N_SPECIAL .. vocab_size - 1
    masked_ids = torch.where(to_mask, torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    return masked_ids.long(), labels.long()
