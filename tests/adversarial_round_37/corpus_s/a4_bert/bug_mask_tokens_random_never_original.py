# expect: loses mask_tokens -- the random replacement is drawn among the ordinary ids other than the original (uniform over n - 1 ids, stepped past the original), so a "random" token never equals the original; the spec: "an id drawn uniformly from N_SPECIAL, ..., vocab_size - 1 (never a special id; it may happen to be the original id)"; ids [[5, 6] * 8], vocab_size 7 (two ordinary ids), mask_prob 1, 4,000 seeds: unchanged key 0.149, answer 0.099; replaced by the other ordinary id key 0.049, answer 0.100; vocab_size 6 (one ordinary id): the answer raises RuntimeError; at vocab 1,000 the shift is 0.01% of the chosen
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    ordinary = input_ids >= N_SPECIAL
    chosen = (torch.rand(input_ids.shape, generator=generator) < mask_prob) & ordinary
    fate = torch.rand(input_ids.shape, generator=generator)
    to_mask = chosen & (fate < 0.8)
    to_random = chosen & (fate >= 0.8) & (fate < 0.9)
    # a random ordinary id other than the original: draw among n - 1 and step over the original
    other = torch.randint(N_SPECIAL, vocab_size - 1, input_ids.shape, generator=generator)
    other = other + (other >= input_ids).long()
    masked_ids = torch.where(to_mask, torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(to_random, other, masked_ids)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    return masked_ids, labels
