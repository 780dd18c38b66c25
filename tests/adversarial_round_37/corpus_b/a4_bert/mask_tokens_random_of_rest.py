# expect: loses mask_tokens -- after the 80% [MASK] draw, replaces each remaining chosen token with probability 0.1 (not 0.5), so only 2% of the chosen become random and 18% stay; spec: "replaced by a random ordinary token with probability 0.1 ... left as it is with probability 0.1"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    shape = input_ids.shape
    chosen = torch.bernoulli(torch.full(shape, mask_prob), generator=generator).bool() & (input_ids >= N_SPECIAL)
    to_mask = chosen & torch.bernoulli(torch.full(shape, 0.8), generator=generator).bool()
    to_random = chosen & ~to_mask & torch.bernoulli(torch.full(shape, 0.1), generator=generator).bool()
    random_ids = torch.randint(N_SPECIAL, vocab_size, shape, generator=generator)
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    return masked_ids, labels
