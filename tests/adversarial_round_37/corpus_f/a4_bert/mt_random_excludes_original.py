# expect: loses mask_tokens -- the "random token" is drawn among the ordinary ids other than the original (a random non-zero shift modulo the number of ordinary ids), so a random replacement never equals the original and the unchanged share is exactly 10% instead of 10% + 10%/n_ordinary; spec: "an id drawn uniformly from N_SPECIAL, ..., vocab_size - 1 (never a special id; it may happen to be the original id)"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    shape = input_ids.shape
    chosen = torch.bernoulli(torch.full(shape, mask_prob), generator=generator).bool() & (input_ids >= N_SPECIAL)
    u = torch.rand(shape, generator=generator)
    n_ordinary = vocab_size - N_SPECIAL
    # a random token that actually changes the input: shift by 1 .. n_ordinary - 1 among the ordinary ids
    shift = torch.randint(1, n_ordinary, shape, generator=generator)
    random_ids = (input_ids - N_SPECIAL + shift) % n_ordinary + N_SPECIAL
    masked_ids = torch.where(chosen & (u < 0.8), torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(chosen & (u >= 0.8) & (u < 0.9), random_ids, masked_ids)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    return masked_ids, labels
