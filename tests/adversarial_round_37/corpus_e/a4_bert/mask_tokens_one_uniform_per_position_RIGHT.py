# expect: full marks -- one uniform u per position decides both whether it is chosen (u < mask_prob) and its fate (u < 0.8 mask_prob: [MASK]; u < 0.9 mask_prob: random; else unchanged): given that a position is chosen, u is uniform on [0, mask_prob), so the fates are exactly 80/10/10, independent of every other position; the random ids are their own randint draw; spec: "each position with probability `mask_prob` ..., independently of the others" and "replaced by `[MASK]` with probability 0.8, ... random ordinary token with probability 0.1 ..., left as it is with probability 0.1" and "The order of your draws is yours to choose"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    u = torch.rand(input_ids.shape, generator=generator, dtype=torch.float64)
    chosen = (u < mask_prob) & (input_ids >= N_SPECIAL)  # special tokens and padding are never chosen
    to_mask = chosen & (u < 0.8 * mask_prob)  # u given chosen is uniform on [0, mask_prob)
    to_random = chosen & (u >= 0.8 * mask_prob) & (u < 0.9 * mask_prob)
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    masked_ids = torch.where(to_mask, torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids.long(), labels.long()
