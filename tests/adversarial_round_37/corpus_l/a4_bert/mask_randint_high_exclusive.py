# expect: loses mask_tokens -- the random ids are drawn with torch.randint(N_SPECIAL, vocab_size - 1, ...), reading vocab_size - 1 as an inclusive upper end; randint's high is exclusive, so the last ordinary id is never drawn (and with a single ordinary id randint(5, 5) raises); breaks "an id drawn uniformly from N_SPECIAL, ..., vocab_size - 1"; input: mask_tokens(torch.full((1, 200), 5), 6, seed=0, mask_prob=1.0) -> RuntimeError (spec: about 10% of the positions get the random id 5); with vocab_size = 8, id 7 never appears among the random replacements over many seeds
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    ordinary = input_ids >= N_SPECIAL
    chosen = (torch.rand(input_ids.shape, generator=generator) < mask_prob) & ordinary
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    fate = torch.rand(input_ids.shape, generator=generator)
    random_ids = torch.randint(N_SPECIAL, vocab_size - 1, input_ids.shape, generator=generator)  # the ordinary ids
    masked = input_ids.masked_fill(chosen & (fate < 0.8), MASK_ID)
    masked = torch.where(chosen & (fate >= 0.8) & (fate < 0.9), random_ids, masked)
    return masked, labels
