# expect: loses mask_tokens -- draws once per distinct row (torch.unique over rows) and copies the draws to identical rows, so two identical rows get the same positions, fates and random ids; "two positions, two rows, two fates or two random ids do not share a draw"; the same 50 ordinary ids repeated in 4 rows, vocab 1000, 100 seeds: key never chooses the same positions in all 4 rows (0/100; seed 0 chooses 7, 7, 8, 12), this answer always (100/100; 7, 7, 7, 7); distinct rows: share chosen 0.1512 in both
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)  # every random number below comes from it
    rows, which = torch.unique(input_ids, dim=0, return_inverse=True)  # each distinct row drawn for once
    shape = rows.shape
    chosen = torch.bernoulli(torch.full(shape, mask_prob), generator=generator).bool() & (rows >= N_SPECIAL)
    fate = torch.rand(shape, generator=generator)  # < 0.8: [MASK]; >= 0.9: a random ordinary token; else kept
    random_ids = torch.randint(N_SPECIAL, vocab_size, shape, generator=generator)
    masked = torch.where(chosen & (fate < 0.8), MASK_ID, rows)
    masked = torch.where(chosen & (fate >= 0.9), random_ids, masked)
    labels = rows.masked_fill(~chosen, IGNORE_INDEX)
    return masked[which].long(), labels[which].long()
