# expect: loses mask_tokens -- draws one random replacement id per row and uses it at every randomly replaced position of that row (two random ids share a draw): with input_ids = randint(5, 1000, (64, 128)), rows with several random replacements get the same id every time
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    B, T = input_ids.shape
    ordinary = input_ids >= N_SPECIAL
    chosen = (torch.rand(B, T, generator=generator) < mask_prob) & ordinary
    u = torch.rand(B, T, generator=generator)
    row_random = torch.randint(N_SPECIAL, vocab_size, (B, 1), generator=generator)  # this row's random token
    masked_ids = torch.where(chosen & (u < 0.8), torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(chosen & (u >= 0.8) & (u < 0.9), row_random.expand(B, T), masked_ids)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    return masked_ids, labels
