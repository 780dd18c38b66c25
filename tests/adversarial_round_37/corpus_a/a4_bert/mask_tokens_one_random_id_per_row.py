# expect: loses mask_tokens  -- draws one random id per row and reuses it for every randomly replaced position of that row; spec: "every draw is its own: ... two positions, two rows, two fates or two random ids do not share a draw"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    B, T = input_ids.shape
    probs = torch.where(input_ids >= N_SPECIAL, mask_prob, 0.0)
    chosen = torch.bernoulli(probs, generator=generator).bool()
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    to_mask = chosen & torch.bernoulli(torch.full((B, T), 0.8), generator=generator).bool()
    to_random = chosen & ~to_mask & torch.bernoulli(torch.full((B, T), 0.5), generator=generator).bool()
    random_ids = torch.randint(N_SPECIAL, vocab_size, (B, 1), generator=generator).expand(B, T)  # one per row
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels
