# expect: loses mask_tokens -- draws the random replacement with torch.randint(N_SPECIAL, vocab_size - 1, ...), reading 'an id drawn uniformly from N_SPECIAL, ..., vocab_size - 1' as randint's inclusive bounds; randint's high is exclusive, so the top ordinary id vocab_size - 1 is never drawn (and vocab_size = N_SPECIAL + 1 raises); every exact check and the visible proportions pass; breaks 'replaced by a random ordinary token with probability 0.1: an id drawn uniformly from N_SPECIAL, ..., vocab_size - 1' ('the random ones spread evenly over the ordinary ids'); input: vocab_size = 8, ids of 2000 ordinary tokens, mask_prob 1, seeds 0..49 -> the file never produces id 7 among its random replacements (key: about a third of them); vocab_size = 6 -> RuntimeError
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    probs = torch.full(input_ids.shape, mask_prob)
    probs[input_ids < N_SPECIAL] = 0.0  # special tokens and padding are never chosen
    chosen = torch.bernoulli(probs, generator=generator).bool()
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    fate = torch.rand(input_ids.shape, generator=generator)  # < 0.8: [MASK]; < 0.9: random; else unchanged
    random_ids = torch.randint(N_SPECIAL, vocab_size - 1, input_ids.shape, generator=generator)  # ids N_SPECIAL .. vocab_size - 1
    masked_ids = torch.where(chosen & (fate < 0.8), MASK_ID, input_ids)
    masked_ids = torch.where(chosen & (fate >= 0.8) & (fate < 0.9), random_ids, masked_ids)
    return masked_ids, labels
