# expect: loses mask_tokens -- draws the random replacement with randint(N_SPECIAL, vocab_size - 1), whose upper bound is exclusive, so the last ordinary id vocab_size - 1 is never drawn; spec: "replaced by a random ordinary token with probability 0.1: an id drawn uniformly from N_SPECIAL, ..., vocab_size - 1"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    ordinary = input_ids >= N_SPECIAL
    chosen = (torch.rand(input_ids.shape, generator=generator) < mask_prob) & ordinary
    fate = torch.rand(input_ids.shape, generator=generator)  # < 0.8: [MASK], < 0.9: random, else kept
    random_ids = torch.randint(N_SPECIAL, vocab_size - 1, input_ids.shape, generator=generator)
    masked_ids = input_ids.clone()
    masked_ids[chosen & (fate < 0.8)] = MASK_ID
    swap = chosen & (fate >= 0.8) & (fate < 0.9)
    masked_ids[swap] = random_ids[swap]
    labels = torch.full_like(input_ids, IGNORE_INDEX)
    labels[chosen] = input_ids[chosen]
    return masked_ids, labels
