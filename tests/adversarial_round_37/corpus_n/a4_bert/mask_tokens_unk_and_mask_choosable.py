# expect: loses mask_tokens -- excludes only [CLS], [SEP] and [PAD] from the choice (the specials the visible tests put in their inputs) and lets [UNK] and [MASK] be chosen, labelled and replaced; breaks 'never a special token: [CLS], [SEP], [PAD], [UNK] and [MASK] (the ids below N_SPECIAL) are never chosen'; input: mask_tokens(tensor([[CLS_ID, UNK_ID, 7, MASK_ID, SEP_ID]]), 30, seed=0, mask_prob=1.0) -> labels [[-100, 1, 7, 4, -100]] (key: [[-100, -100, 7, -100, -100]])
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    structural = (input_ids == CLS_ID) | (input_ids == SEP_ID) | (input_ids == PAD_ID)  # never chosen
    probs = torch.full(input_ids.shape, mask_prob).masked_fill(structural, 0.0)
    chosen = torch.bernoulli(probs, generator=generator).bool()
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    to_mask = torch.bernoulli(torch.full(input_ids.shape, 0.8), generator=generator).bool() & chosen
    to_random = torch.bernoulli(torch.full(input_ids.shape, 0.5), generator=generator).bool() & chosen & ~to_mask
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = torch.where(to_random, random_ids, input_ids.masked_fill(to_mask, MASK_ID))
    return masked_ids, labels
