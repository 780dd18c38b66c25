# expect: loses mask_tokens  -- the random ordinary id is drawn as N_SPECIAL + floor(rand() * n) with torch.rand in float32, whose values are multiples of 2**-24: past 2**24 ordinary ids only a lattice of them can be drawn (n = 2**30: every random id is N_SPECIAL plus a multiple of 64) and below it the ids are not equally likely; part 2 says the random id is drawn uniformly from N_SPECIAL .. vocab_size - 1; vocab_size 2**30 + 5, mask_prob 1, 100 seeds of 1,000 ordinary tokens: the key's random ids take every residue mod 64 (about 1/64 each), the answer's are all 5 mod 64 (at vocab_size 30,522 the law is off by under 0.2% per id)
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    ordinary = input_ids >= N_SPECIAL  # special tokens and padding are never chosen
    chosen = ordinary & (torch.rand(input_ids.shape, generator=generator) < mask_prob)
    fate = torch.rand(input_ids.shape, generator=generator)  # < 0.8: [MASK], < 0.9: a random token, else kept
    n_ordinary = vocab_size - N_SPECIAL
    random_ids = N_SPECIAL + (torch.rand(input_ids.shape, generator=generator) * n_ordinary).long()
    masked_ids = torch.where(chosen & (fate < 0.8), torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(chosen & (fate >= 0.8) & (fate < 0.9), random_ids, masked_ids)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    return masked_ids, labels
