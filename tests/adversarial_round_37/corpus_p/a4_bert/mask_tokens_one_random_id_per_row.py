# expect: loses mask_tokens -- draws the random replacement ids with shape (B, 1) and broadcasts them, so every position of a row that gets a random token gets the same one: each id alone is uniform over the ordinary ids and every per-call rule and share holds, but two random ids in a row share one draw. Breaks "an id drawn uniformly from N_SPECIAL, ..., vocab_size - 1" per position and "two positions, two rows, two fates or two random ids do not share a draw"; input: input_ids = randint(5, 1000, (64, 128)) (seed 0), vocab 1000, seeds 0..199 -> among rows with two or more random-token positions, the share of pairs of random ids in the same row that are equal: key 18 of 23,816 = 0.0008 (1/995 expected), this answer 23,810 of 23,810 = 1.0 (random share of the chosen 0.1001 in both)
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
    random_ids = torch.randint(N_SPECIAL, vocab_size, (input_ids.shape[0], 1), generator=generator)  # one per row, broadcast
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels
