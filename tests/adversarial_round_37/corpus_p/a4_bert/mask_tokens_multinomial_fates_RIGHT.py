# expect: full marks -- chooses positions with torch.rand < mask_prob among the ordinary ones, then draws each position's fate (mask / random / keep) with one torch.multinomial row of weights (0.8, 0.1, 0.1) per position, and the random ids with torch.randint, all from the one generator
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    ordinary = input_ids >= N_SPECIAL
    chosen = (torch.rand(input_ids.shape, generator=generator) < mask_prob) & ordinary
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    n = input_ids.numel()
    weights = torch.tensor([0.8, 0.1, 0.1]).expand(n, 3)  # one categorical draw per position
    fate = torch.multinomial(weights, 1, generator=generator).reshape(input_ids.shape)  # 0 mask, 1 random, 2 keep
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = torch.where(chosen & (fate == 0), torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(chosen & (fate == 1), random_ids, masked_ids)
    return masked_ids, labels
