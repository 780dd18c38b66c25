# expect: loses mask_tokens -- the random replacement is drawn uniformly among the ordinary ids OTHER than the original (randint over vocab_size - N_SPECIAL - 1 ids, shifted past the original), where the spec says it may happen to be the original: with vocab_size 7 (two ordinary ids) a "random" position always changes its token, so 10% (not 5%) of the chosen change to a random id and 10% (not 15%) stay as they were; with vocab_size 1000 the shares differ by 1e-4
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    ordinary = input_ids >= N_SPECIAL
    chosen = (torch.rand(input_ids.shape, generator=generator) < mask_prob) & ordinary
    fate = torch.rand(input_ids.shape, generator=generator)
    to_mask = chosen & (fate < 0.8)
    to_random = chosen & (fate >= 0.8) & (fate < 0.9)
    n_other = max(vocab_size - N_SPECIAL - 1, 1)
    other = torch.randint(0, n_other, input_ids.shape, generator=generator) + N_SPECIAL
    other = other + (other >= input_ids).long()  # skip the original id: a replacement should replace
    other = other.clamp(max=vocab_size - 1)
    masked_ids = torch.where(to_mask, torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(to_random, other, masked_ids)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    return masked_ids, labels
