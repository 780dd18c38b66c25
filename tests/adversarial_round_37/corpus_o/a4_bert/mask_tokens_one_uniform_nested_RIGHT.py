# expect: full marks — mask_tokens: one uniform u per position and nested thresholds: chosen if u < mask_prob, [MASK] if u < 0.8 mask_prob, random if 0.8 mask_prob <= u < 0.9 mask_prob (given u < mask_prob, u / mask_prob is uniform, so the fate has exactly the 80/10/10 law and is independent of other positions); random ids from one randint over the batch
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    u = torch.rand(input_ids.shape, generator=generator, dtype=torch.float64)
    ordinary = input_ids >= N_SPECIAL
    chosen = ordinary & (u < mask_prob)
    to_mask = chosen & (u < 0.8 * mask_prob)
    to_random = chosen & ~to_mask & (u < 0.9 * mask_prob)
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = torch.where(to_mask, torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    return masked_ids, labels
