# expect: loses mask_tokens -- the "random" replacement is drawn among the OTHER ordinary ids (original + shift, shift in 1..n-1), but the spec draws uniformly from all ordinary ids ("it may happen to be the original id"): the unchanged share is 10% instead of 10% + 10%/n, visible with a small vocabulary (vocab_size=7: 2 ordinary ids, 15% vs 10% of chosen tokens unchanged); vocab_size=6 raises
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    n_ordinary = vocab_size - N_SPECIAL
    ordinary = input_ids >= N_SPECIAL
    chosen = (torch.rand(input_ids.shape, generator=generator) < mask_prob) & ordinary
    fate = torch.rand(input_ids.shape, generator=generator)
    to_mask = chosen & (fate < 0.8)
    to_random = chosen & (fate >= 0.8) & (fate < 0.9)
    shift = torch.randint(1, n_ordinary, input_ids.shape, generator=generator)  # a random token, another one
    random_ids = N_SPECIAL + (input_ids - N_SPECIAL + shift) % n_ordinary
    masked_ids = torch.where(to_mask, torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    return masked_ids, labels
