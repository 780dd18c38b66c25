# expect: loses mask_tokens -- rescales the rate per row to mask_prob * T / (number of ordinary tokens in the row), "so that 15% of the sequence is masked": rows with padding or many special tokens get their ordinary tokens chosen with a higher probability (a row half padding: 30%), which no visible test sees (their rows have no padding, or mask_prob = 1); spec: "it **chooses** positions at random: each position with probability `mask_prob` (BERT: 0.15), independently of the others, but never a special token" and "about `mask_prob` of the ordinary tokens chosen"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    ordinary = input_ids >= N_SPECIAL
    T = input_ids.shape[1]
    rate = (mask_prob * T / ordinary.sum(dim=1, keepdim=True).clamp(min=1)).clamp(max=1.0)  # (B, 1): 15% of the row's length
    probs = rate.expand(input_ids.shape) * ordinary  # special tokens and padding are never chosen
    chosen = torch.bernoulli(probs, generator=generator).bool()
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    to_mask = torch.bernoulli(torch.full(input_ids.shape, 0.8), generator=generator).bool() & chosen
    to_random = torch.bernoulli(torch.full(input_ids.shape, 0.5), generator=generator).bool() & chosen & ~to_mask
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels
