# expect: loses mask_tokens -- chooses each ordinary token with probability 2*mask_prob at an even position (column) and 0 at an odd one (min/max-clamped so that mask_prob = 1 still chooses all): the overall proportion, the 80/10/10 fates, the independence of draws and the per-call rules all hold, but a token at an odd position is never chosen, against "each position with probability mask_prob"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    even = (torch.arange(input_ids.shape[-1]) % 2 == 0).expand(input_ids.shape)
    p_even, p_odd = min(1.0, 2 * mask_prob), max(0.0, 2 * mask_prob - 1.0)
    probs = torch.where(even, torch.full(input_ids.shape, p_even), torch.full(input_ids.shape, p_odd))
    probs[input_ids < N_SPECIAL] = 0.0
    chosen = torch.bernoulli(probs, generator=generator).bool()
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    to_mask = torch.bernoulli(torch.full(input_ids.shape, 0.8), generator=generator).bool() & chosen
    to_random = torch.bernoulli(torch.full(input_ids.shape, 0.5), generator=generator).bool() & chosen & ~to_mask
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels
