# expect: full marks -- one uniform u per position decides both the choice (u < mask_prob) and the fate (u / mask_prob against 0.8 and 0.9): given the choice, u / mask_prob is uniform, so every law is exact and positions stay independent
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    u = torch.rand(input_ids.shape, generator=generator, dtype=torch.float64)
    chosen = (u < mask_prob) & (input_ids >= N_SPECIAL)
    fate = u / mask_prob if mask_prob > 0 else u  # uniform on [0, 1) given the choice
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = input_ids.clone()
    masked_ids[chosen & (fate < 0.8)] = MASK_ID
    rnd = chosen & (fate >= 0.8) & (fate < 0.9)
    masked_ids[rnd] = random_ids[rnd]
    labels = torch.full_like(input_ids, IGNORE_INDEX)
    labels[chosen] = input_ids[chosen]
    return masked_ids, labels
