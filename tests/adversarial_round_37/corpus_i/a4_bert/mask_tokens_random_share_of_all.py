# expect: loses mask_tokens -- the random replacement is a 10% Bernoulli of the chosen tokens not masked, so only 0.2 * 0.1 = 2% of the chosen become random and 18% stay unchanged (80/2/18 instead of 80/10/10); visible only checks the 80%
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    g = torch.Generator().manual_seed(seed)
    chosen = torch.bernoulli(torch.full(input_ids.shape, mask_prob), generator=g).bool() & (input_ids >= N_SPECIAL)
    labels = torch.where(chosen, input_ids, IGNORE_INDEX)
    to_mask = chosen & torch.bernoulli(torch.full(input_ids.shape, 0.8), generator=g).bool()
    to_random = chosen & ~to_mask & torch.bernoulli(torch.full(input_ids.shape, 0.1), generator=g).bool()  # 10% random
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=g)
    masked = torch.where(to_mask, MASK_ID, input_ids)
    masked = torch.where(to_random, random_ids, masked)
    return masked, labels
