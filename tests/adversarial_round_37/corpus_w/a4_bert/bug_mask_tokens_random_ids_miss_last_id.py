# expect: loses mask_tokens -- "an id drawn uniformly from N_SPECIAL, ..., vocab_size - 1": torch.randint's high is exclusive, and this version passes vocab_size - 1 as if it were inclusive, so the last ordinary id vocab_size - 1 is never drawn and the others are each 1/(V - 6) likely instead of 1/(V - 5) (with vocab_size = 6 every random token is id 5 ... and vocab_size = N_SPECIAL + 1 makes randint(5, 5) raise); the visible tests check only the share of [MASK]
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    ordinary = input_ids >= N_SPECIAL
    chosen = (torch.rand(input_ids.shape, generator=generator) < mask_prob) & ordinary
    fate = torch.rand(input_ids.shape, generator=generator)
    random_ids = torch.randint(N_SPECIAL, vocab_size - 1, input_ids.shape, generator=generator)  # N_SPECIAL .. vocab_size - 1
    masked_ids = torch.where(chosen & (fate < 0.8), torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(chosen & (fate >= 0.8) & (fate < 0.9), random_ids, masked_ids)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    return masked_ids, labels
