# expect: loses mask_tokens -- the special tokens are excluded as a list of ids, [CLS], [SEP], [PAD] and [MASK] (what a tokenizer's special-tokens mask plus the padding mask cover), and [UNK] is forgotten, so unknown tokens get chosen, labelled and replaced; the visible inputs hold no [UNK]; breaks "never a special token: [CLS], [SEP], [PAD], [UNK] and [MASK] (the ids below N_SPECIAL) are never chosen"; input: mask_tokens(torch.tensor([[CLS_ID, UNK_ID, 7, SEP_ID]]), 30, seed=0, mask_prob=1.0) -> labels[0, 1] == UNK_ID (spec: IGNORE_INDEX, position unchanged)
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    g = torch.Generator().manual_seed(seed)
    special = (input_ids == CLS_ID) | (input_ids == SEP_ID) | (input_ids == PAD_ID) | (input_ids == MASK_ID)
    probs = torch.full(input_ids.shape, float(mask_prob)).masked_fill(special, 0.0)
    chosen = torch.bernoulli(probs, generator=g).bool()
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    u = torch.rand(input_ids.shape, generator=g)
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=g)
    masked = torch.where(chosen & (u < 0.8), torch.full_like(input_ids, MASK_ID), input_ids)
    masked = torch.where(chosen & (u >= 0.8) & (u < 0.9), random_ids, masked)
    return masked, labels
