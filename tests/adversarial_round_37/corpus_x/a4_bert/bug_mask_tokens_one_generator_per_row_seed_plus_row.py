# expect: loses mask_tokens -- "Make one generator, `generator = torch.Generator().manual_seed(seed)`, and draw every random number from it ... two positions, two rows, two fates or two random ids do not share a draw": each row gets a generator of its own seeded `seed + b` (so rows differ and a seed repeats itself); but the streams overlap across seeds: row b of seed s is drawn exactly as row b + 1 of seed s - 1 (with the same tokens it is masked the same way), so over many seeds rows share draws, and row 0 of every call depends on the seed alone, not on the batch
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    masked_rows, label_rows = [], []
    for b, row in enumerate(input_ids):
        generator = torch.Generator().manual_seed(seed + b)  # a stream per row
        chosen = (torch.rand(row.shape, generator=generator) < mask_prob) & (row >= N_SPECIAL)
        fate = torch.rand(row.shape, generator=generator)
        random_ids = torch.randint(N_SPECIAL, vocab_size, row.shape, generator=generator)
        new = torch.where(chosen & (fate < 0.8), MASK_ID, row)
        new = torch.where(chosen & (fate >= 0.8) & (fate < 0.9), random_ids, new)
        masked_rows.append(new)
        label_rows.append(torch.where(chosen, row, IGNORE_INDEX))
    return torch.stack(masked_rows).long(), torch.stack(label_rows).long()
