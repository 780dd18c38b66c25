# expect: loses mask_tokens  -- the random replacement is drawn from 0..vocab_size-1, so it can be [PAD]/[CLS]/[SEP]/[MASK]/[UNK]; spec: "replaced by a random ordinary token with probability 0.1: an id drawn uniformly from N_SPECIAL, ..., vocab_size - 1 (never a special id ...)"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    special = input_ids < N_SPECIAL
    chosen = (torch.rand(input_ids.shape, generator=generator) < mask_prob) & ~special
    labels = torch.where(chosen, input_ids, IGNORE_INDEX)
    u = torch.rand(input_ids.shape, generator=generator)
    masked_ids = input_ids.clone()
    masked_ids[chosen & (u < 0.8)] = MASK_ID
    replace = chosen & (u >= 0.8) & (u < 0.9)
    random_ids = torch.randint(vocab_size, input_ids.shape, generator=generator)  # a random token of the vocabulary
    masked_ids[replace] = random_ids[replace]
    return masked_ids, labels
