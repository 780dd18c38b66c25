# expect: loses mask_tokens -- the random replacement is drawn among the ordinary ids other than the original one (a draw over vocab_size - N_SPECIAL - 1 ids, shifted past the original), so a 'random' position never keeps its id; breaks 'an id drawn uniformly from N_SPECIAL, ..., vocab_size - 1 (never a special id; it may happen to be the original id)' and the 10% left-as-is share; input: vocab_size = N_SPECIAL + 2 (two ordinary ids), input_ids all 5, mask_prob=1, 300 seeds -> share of chosen positions that keep id 5: key 0.15 (0.1 + 0.1/2), this 0.10
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    probs = torch.full(input_ids.shape, mask_prob)
    probs[input_ids < N_SPECIAL] = 0.0  # special tokens and padding are never chosen
    chosen = torch.bernoulli(probs, generator=generator).bool()
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    to_mask = torch.bernoulli(torch.full(input_ids.shape, 0.8), generator=generator).bool() & chosen
    # half of the remaining 20%: 10% of the chosen become a random ordinary token
    to_random = torch.bernoulli(torch.full(input_ids.shape, 0.5), generator=generator).bool() & chosen & ~to_mask
    random_ids = torch.randint(N_SPECIAL, vocab_size - 1, input_ids.shape, generator=generator)
    random_ids = random_ids + (random_ids >= input_ids).long()  # skip the original id: a random token must change it
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels
