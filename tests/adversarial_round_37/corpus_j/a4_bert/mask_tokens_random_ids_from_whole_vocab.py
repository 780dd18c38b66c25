# expect: loses mask_tokens -- random replacements drawn from 0 .. vocab_size-1 (as Hugging Face's collator does), so about N_SPECIAL/vocab_size of them are special ids: vocab_size=8, mask_prob=1.0 on a 64x128 batch of ordinary ids puts [CLS]/[SEP]/[PAD]/... ids at chosen positions
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    labels = input_ids.clone()
    probability_matrix = torch.full(labels.shape, mask_prob)
    probability_matrix.masked_fill_(input_ids < N_SPECIAL, 0.0)
    masked_indices = torch.bernoulli(probability_matrix, generator=generator).bool()
    labels[~masked_indices] = IGNORE_INDEX
    masked_ids = input_ids.clone()
    # 80% of the time, replace with [MASK]
    indices_replaced = torch.bernoulli(torch.full(labels.shape, 0.8), generator=generator).bool() & masked_indices
    masked_ids[indices_replaced] = MASK_ID
    # 10% of the time, replace with a random word
    indices_random = torch.bernoulli(torch.full(labels.shape, 0.5), generator=generator).bool() & masked_indices & ~indices_replaced
    random_words = torch.randint(vocab_size, labels.shape, dtype=torch.long, generator=generator)
    masked_ids[indices_random] = random_words[indices_random]
    # the rest (10% of the time) keep the original token
    return masked_ids, labels
