# expect: loses mask_tokens -- tells special tokens by input_ids <= N_SPECIAL instead of < N_SPECIAL, so the first ordinary id (5) is treated as special and never chosen; the visible batches hold id 5 at about 1 position in 1,000 and never look at it. Breaks "never a special token: ... (the ids below N_SPECIAL)" and "about mask_prob of the ordinary tokens chosen"; input: input_ids = full((4, 500), 5), vocab 30, mask_prob 0.15, seed 0 -> key: about 300 positions chosen; this answer: 0
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    special = input_ids <= N_SPECIAL  # [PAD], [UNK], [CLS], [SEP], [MASK] and friends
    u = torch.rand(input_ids.shape, generator=generator)
    chosen = (u < mask_prob) & ~special
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    fate = torch.rand(input_ids.shape, generator=generator)
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = input_ids.clone()
    masked_ids[chosen & (fate < 0.8)] = MASK_ID
    to_random = chosen & (fate >= 0.8) & (fate < 0.9)
    masked_ids[to_random] = random_ids[to_random]
    return masked_ids, labels
