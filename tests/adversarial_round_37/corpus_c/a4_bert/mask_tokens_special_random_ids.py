# expect: loses mask_tokens -- draws the random replacement from the whole vocabulary 0 .. vocab_size - 1, specials included; spec: "an id drawn uniformly from N_SPECIAL, ..., vocab_size - 1 (never a special id ...)"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    probs = torch.full(input_ids.shape, mask_prob)
    probs[input_ids < N_SPECIAL] = 0.0
    chosen = torch.bernoulli(probs, generator=generator).bool()
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    to_mask = torch.bernoulli(torch.full(input_ids.shape, 0.8), generator=generator).bool() & chosen
    to_random = torch.bernoulli(torch.full(input_ids.shape, 0.5), generator=generator).bool() & chosen & ~to_mask
    random_ids = torch.randint(vocab_size, input_ids.shape, generator=generator)  # a random token of the vocabulary
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels
