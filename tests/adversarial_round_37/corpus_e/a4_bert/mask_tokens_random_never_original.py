# expect: loses mask_tokens -- "a random token must change something": draws the replacement uniformly from the ordinary ids other than the original (an offset in 1 .. n_ordinary - 1 added modulo n_ordinary), so a random replacement is never the original id and the "unchanged" share is 10% instead of 10% + 10%/n_ordinary; spec: "an id drawn uniformly from `N_SPECIAL, ..., vocab_size - 1` (never a special id; it may happen to be the original id)"
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
    n_ordinary = vocab_size - N_SPECIAL
    offset = torch.randint(1, n_ordinary, input_ids.shape, generator=generator)  # never 0: a different token
    random_ids = N_SPECIAL + (input_ids - N_SPECIAL + offset) % n_ordinary
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels
