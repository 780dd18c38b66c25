# expect: loses mask_tokens -- "Make one generator, `generator = torch.Generator().manual_seed(seed)` ... so that the same seed gives the same masking": the seed is salted with the function's name through Python's hash of a string (`hash(f"mask_tokens:{seed}")`, to keep this stream apart from other functions seeded alike); within one interpreter every call with a seed repeats itself (the visible test), but str hashes are randomised per process (PYTHONHASHSEED), so the same seed masks differently in every new kernel, run or worker, and the masking is never the one manual_seed(seed) gives
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(hash(f"mask_tokens:{seed}") % 2**63)
    shape = input_ids.shape
    chosen = (torch.rand(shape, generator=generator) < mask_prob) & (input_ids >= N_SPECIAL)
    fate = torch.rand(shape, generator=generator)  # < 0.8: [MASK]; 0.8 .. 0.9: random; else kept
    random_ids = torch.randint(N_SPECIAL, vocab_size, shape, generator=generator)
    masked_ids = torch.where(chosen & (fate < 0.8), torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(chosen & (fate >= 0.8) & (fate < 0.9), random_ids, masked_ids)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    return masked_ids, labels
