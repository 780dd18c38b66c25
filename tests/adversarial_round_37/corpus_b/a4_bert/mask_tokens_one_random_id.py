# expect: loses mask_tokens -- draws one random replacement id per batch and writes it at every "random" position; spec: "replaced by a random ordinary token ... an id drawn uniformly" and "two positions, two rows, two fates or two random ids do not share a draw"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    special = input_ids < N_SPECIAL
    chosen = (torch.rand(input_ids.shape, generator=generator) < mask_prob) & ~special
    u = torch.rand(input_ids.shape, generator=generator)
    replacement = torch.randint(N_SPECIAL, vocab_size, (1,), generator=generator)  # the random token
    masked_ids = input_ids.clone()
    masked_ids[chosen & (u < 0.8)] = MASK_ID
    masked_ids[chosen & (u >= 0.8) & (u < 0.9)] = replacement
    labels = input_ids.clone()
    labels[~chosen] = IGNORE_INDEX
    return masked_ids, labels
