# expect: full marks (one uniform per position for the choice, then, for the chosen positions only (a compacted vector whose length varies with the draw), one uniform for the fate and one random id each; the number of draws depends on the seed, which the spec's "the order of your draws is yours" allows)
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    flat = input_ids.reshape(-1)
    chosen = (torch.rand(flat.shape, generator=generator) < mask_prob) & (flat >= N_SPECIAL)
    where = chosen.nonzero().squeeze(1)  # (n,): the chosen positions, in order
    fate = torch.rand(where.shape, generator=generator)  # one per chosen position
    random_ids = torch.randint(N_SPECIAL, vocab_size, where.shape, generator=generator)
    replaced = torch.where(fate < 0.8, torch.full_like(random_ids, MASK_ID), torch.where(fate < 0.9, random_ids, flat[where]))
    masked_ids = flat.clone()
    masked_ids[where] = replaced
    labels = torch.full_like(flat, IGNORE_INDEX)
    labels[where] = flat[where]
    return masked_ids.reshape(input_ids.shape), labels.reshape(input_ids.shape)
