# expect: loses mask_tokens -- the random ordinary id is made as N_SPECIAL + randint(0, vocab_size) % (vocab_size - N_SPECIAL): the modulo folds vocab_size values onto vocab_size - N_SPECIAL ids, so the lowest N_SPECIAL residues are drawn twice as often (uniform only when the number of ordinary ids divides vocab_size); breaks "an id drawn uniformly from N_SPECIAL, ..., vocab_size - 1"; input: vocab_size = 8 (ordinary ids 5, 6, 7), ids all 5, mask_prob = 1, many seeds -> among the random replacements id 7 has probability 2/8 instead of 1/3 (ids 5, 6: 3/8 each)
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    g = torch.Generator().manual_seed(seed)
    chosen = torch.bernoulli(torch.full(input_ids.shape, float(mask_prob)), generator=g).bool() & (input_ids >= N_SPECIAL)
    labels = torch.where(chosen, input_ids, IGNORE_INDEX * torch.ones_like(input_ids))
    fate = torch.rand(input_ids.shape, generator=g)
    random_ids = N_SPECIAL + torch.randint(0, vocab_size, input_ids.shape, generator=g) % (vocab_size - N_SPECIAL)
    masked = torch.where(chosen & (fate < 0.8), MASK_ID * torch.ones_like(input_ids), input_ids)
    masked = torch.where(chosen & (fate >= 0.8) & (fate < 0.9), random_ids, masked)
    return masked, labels
