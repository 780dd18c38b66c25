# expect: loses mask_tokens -- draws the "random token" fate with probability 0.1 among the chosen positions that were not masked (bernoulli(0.1) & chosen & ~to_mask), reading "10% random" as 10% of what is left: only 0.2 * 0.1 = 2% of the chosen get a random id and 18% stay unchanged. Every per-call rule holds (only ordinary tokens chosen, labels, [MASK] or an ordinary id, the rest unchanged) and the visible shares (15% chosen, 80% [MASK]) are right. Breaks "replaced by a random ordinary token with probability 0.1, left as it is with probability 0.1"; input: 64 x 128 ids uniform over 5..999, vocab 1000, seeds 0..199 -> share of chosen that differ from the original and are not [MASK]: key 0.1001, this answer 0.0206 (chosen share 0.1504 and [MASK] 0.7992 in both)
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    probs = torch.full(input_ids.shape, mask_prob)
    probs[input_ids < N_SPECIAL] = 0.0
    chosen = torch.bernoulli(probs, generator=generator).bool()
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    to_mask = torch.bernoulli(torch.full(input_ids.shape, 0.8), generator=generator).bool() & chosen
    # of the other 20%: 10% random, the rest unchanged
    to_random = torch.bernoulli(torch.full(input_ids.shape, 0.1), generator=generator).bool() & chosen & ~to_mask
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels
