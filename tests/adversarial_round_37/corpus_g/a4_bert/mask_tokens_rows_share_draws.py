# expect: loses mask_tokens -- draws the choice, fate and random ids for one row of length T and broadcasts them over the batch, so every row masks the same positions the same way
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    T = input_ids.shape[-1]
    u = torch.rand(T, generator=generator)  # one draw per position...
    fate = torch.rand(T, generator=generator)
    random_ids = torch.randint(N_SPECIAL, vocab_size, (T,), generator=generator)
    chosen = (u < mask_prob) & (input_ids >= N_SPECIAL)  # ... broadcast over the batch
    to_mask = chosen & (fate < 0.8)
    to_random = chosen & (fate >= 0.8) & (fate < 0.9)
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids.expand_as(input_ids), masked_ids)
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    return masked_ids, labels
