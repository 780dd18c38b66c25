# expect: loses mask_tokens -- chooses exactly round(mask_prob * n) ordinary positions per row with a permutation, so the count never varies; spec: "each position with probability mask_prob ..., independently of the others" and "how many tokens a row or a batch gets varies from seed to seed (no fixed number, no minimum)"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    B, T = input_ids.shape
    chosen = torch.zeros(B, T, dtype=torch.bool)
    for b in range(B):
        candidates = (input_ids[b] >= N_SPECIAL).nonzero().flatten()
        n = round(mask_prob * len(candidates))  # 15% of the row's ordinary tokens
        pick = candidates[torch.randperm(len(candidates), generator=generator)[:n]]
        chosen[b, pick] = True
    u = torch.rand(B, T, generator=generator)
    random_ids = torch.randint(N_SPECIAL, vocab_size, (B, T), generator=generator)
    masked_ids = torch.where(chosen & (u < 0.8), torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(chosen & (u >= 0.8) & (u < 0.9), random_ids, masked_ids)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    return masked_ids, labels
