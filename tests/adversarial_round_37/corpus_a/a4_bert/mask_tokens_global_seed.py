# expect: loses mask_tokens  -- seeds torch's global RNG (torch.manual_seed) and draws from it instead of a generator; reproducible, but it clobbers the caller's RNG state; spec: "Make one generator, generator = torch.Generator().manual_seed(seed), and draw every random number from it"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    torch.manual_seed(seed)  # same seed, same masking
    ordinary = input_ids >= N_SPECIAL
    chosen = (torch.rand(input_ids.shape) < mask_prob) & ordinary
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    fate = torch.rand(input_ids.shape)
    to_mask = chosen & (fate < 0.8)
    to_random = chosen & (fate >= 0.8) & (fate < 0.9)
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape)
    masked_ids = input_ids.clone()
    masked_ids[to_mask] = MASK_ID
    masked_ids[to_random] = random_ids[to_random]
    return masked_ids, labels
