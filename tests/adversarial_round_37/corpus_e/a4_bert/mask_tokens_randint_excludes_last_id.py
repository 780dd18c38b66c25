# expect: loses mask_tokens -- draws the random token with randint(N_SPECIAL, vocab_size - 1), whose upper bound is exclusive: the last ordinary id vocab_size - 1 is never drawn (invisible with a vocabulary of 1000, plain with vocab_size = N_SPECIAL + 2, where every random token is N_SPECIAL); spec: "an id drawn uniformly from `N_SPECIAL, ..., vocab_size - 1` (never a special id; it may happen to be the original id)" and "the random ones spread evenly over the ordinary ids"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    probs = torch.full(input_ids.shape, mask_prob)
    probs[input_ids < N_SPECIAL] = 0.0  # special tokens and padding are never chosen
    chosen = torch.bernoulli(probs, generator=generator).bool()
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    to_mask = torch.bernoulli(torch.full(input_ids.shape, 0.8), generator=generator).bool() & chosen
    to_random = torch.bernoulli(torch.full(input_ids.shape, 0.5), generator=generator).bool() & chosen & ~to_mask
    random_ids = torch.randint(N_SPECIAL, vocab_size - 1, input_ids.shape, generator=generator)  # ids N_SPECIAL .. vocab_size - 1
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels
