# expect: loses mask_tokens -- the 80/10/10 fate of a chosen token is drawn once per column (shape (T,)) and shared by every row of the batch; spec: "and that every draw is its own: ... two positions, two rows, two fates or two random ids do not share a draw"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    B, T = input_ids.shape
    ordinary = input_ids >= N_SPECIAL
    chosen = (torch.rand(B, T, generator=generator) < mask_prob) & ordinary
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    fate = torch.rand(T, generator=generator).expand(B, T)  # one fate per position of the sequence
    random_ids = torch.randint(N_SPECIAL, vocab_size, (B, T), generator=generator)
    masked_ids = input_ids.clone()
    masked_ids[chosen & (fate < 0.8)] = MASK_ID
    swap = chosen & (fate >= 0.8) & (fate < 0.9)
    masked_ids[swap] = random_ids[swap]
    return masked_ids, labels
