# expect: loses mask_tokens -- draws "random with probability 0.1" on every chosen position independently of the [MASK] draw and applies it after, so a random id overwrites 10% of the [MASK]s: 72% [MASK], 10% random, 18% unchanged (the visible check of [MASK] accepts 70%-90%); spec: "Each chosen position is then - replaced by `[MASK]` (`MASK_ID`) with probability 0.8, - replaced by a **random ordinary token** with probability 0.1 ..., - left as it is with probability 0.1"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    probs = torch.full(input_ids.shape, mask_prob)
    probs[input_ids < N_SPECIAL] = 0.0  # special tokens and padding are never chosen
    chosen = torch.bernoulli(probs, generator=generator).bool()
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    to_mask = torch.bernoulli(torch.full(input_ids.shape, 0.8), generator=generator).bool() & chosen  # 80%
    to_random = torch.bernoulli(torch.full(input_ids.shape, 0.1), generator=generator).bool() & chosen  # 10%
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels
