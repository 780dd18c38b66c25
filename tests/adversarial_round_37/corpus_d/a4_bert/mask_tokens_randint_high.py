# expect: loses mask_tokens -- the random replacement is drawn with randint(N_SPECIAL, vocab_size - 1), whose upper bound is exclusive, so the top id vocab_size - 1 is never drawn; spec: "an id drawn uniformly from `N_SPECIAL, ..., vocab_size - 1`"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    u = torch.rand(input_ids.shape, generator=generator)
    chosen = (u < mask_prob) & (input_ids >= N_SPECIAL)
    fate = torch.rand(input_ids.shape, generator=generator)
    random_ids = torch.randint(N_SPECIAL, vocab_size - 1, input_ids.shape, generator=generator)
    masked_ids = torch.where(chosen & (fate < 0.8), torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(chosen & (fate >= 0.8) & (fate < 0.9), random_ids, masked_ids)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    return masked_ids, labels
