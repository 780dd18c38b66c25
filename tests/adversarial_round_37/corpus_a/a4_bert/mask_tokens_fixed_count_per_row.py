# expect: loses mask_tokens  -- chooses exactly round(mask_prob * n_ordinary) positions per row (randperm), a fixed count instead of independent coin flips; spec: "each position with probability mask_prob (BERT: 0.15), independently of the others" and "how many tokens a row or a batch gets varies from seed to seed (no fixed number, no minimum)"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    chosen = torch.zeros_like(input_ids, dtype=torch.bool)
    for b in range(input_ids.shape[0]):
        candidates = (input_ids[b] >= N_SPECIAL).nonzero().squeeze(1)  # ordinary tokens of row b
        n = round(mask_prob * len(candidates))  # 15% of them
        pick = candidates[torch.randperm(len(candidates), generator=generator)[:n]]
        chosen[b, pick] = True
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    u = torch.rand(input_ids.shape, generator=generator)
    to_mask = chosen & (u < 0.8)
    to_random = chosen & (u >= 0.8) & (u < 0.9)
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = torch.where(to_mask, torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels
