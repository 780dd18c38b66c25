# expect: full marks -- choice by `torch.rand < mask_prob`, the 80/10/10 fate from one more uniform per position (below 0.8 mask, 0.8 to 0.9 random, else kept), random ids drawn for every position, all by torch.where
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    shape = input_ids.shape
    chosen = (torch.rand(shape, generator=generator) < mask_prob) & (input_ids >= N_SPECIAL)
    fate = torch.rand(shape, generator=generator)
    random_ids = torch.randint(N_SPECIAL, vocab_size, shape, generator=generator)
    masked_ids = torch.where(chosen & (fate < 0.8), MASK_ID, input_ids)
    masked_ids = torch.where(chosen & (fate >= 0.8) & (fate < 0.9), random_ids, masked_ids)
    labels = torch.where(chosen, input_ids, IGNORE_INDEX)
    return masked_ids.long(), labels.long()
