# expect: full marks -- two independent uniforms per position (one for the choice, one for the fate, cut at 0.8 and 0.9) and one random id per position, all from the one generator; built on a clone
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    shape = input_ids.shape
    choice = torch.rand(shape, generator=generator)
    fate = torch.rand(shape, generator=generator)
    random_ids = torch.randint(N_SPECIAL, vocab_size, shape, generator=generator, dtype=torch.long)
    chosen = (input_ids >= N_SPECIAL) & (choice < mask_prob)
    masked_ids = input_ids.clone().long()
    masked_ids[chosen & (fate < 0.8)] = MASK_ID
    randomised = chosen & (fate >= 0.8) & (fate < 0.9)
    masked_ids[randomised] = random_ids[randomised]
    labels = torch.full(shape, IGNORE_INDEX, dtype=torch.long)
    labels[chosen] = input_ids[chosen].long()
    return masked_ids, labels
