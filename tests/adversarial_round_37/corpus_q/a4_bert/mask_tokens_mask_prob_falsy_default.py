# expect: loses mask_tokens -- `mask_prob = mask_prob or 0.15`: a mask_prob given explicitly as 0.0 (falsy) becomes BERT's 0.15; "it chooses positions at random: each position with probability mask_prob"; randint(5,1000,(4,50)), vocab 1000, seed 0, mask_prob=0.0: key chooses 0 positions (labels all -100), this answer 34
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    mask_prob = mask_prob or 0.15  # BERT's rate unless another is asked for
    generator = torch.Generator().manual_seed(seed)
    ids = input_ids.long()
    ordinary = ids >= N_SPECIAL
    chosen = (torch.rand(ids.shape, generator=generator) < mask_prob) & ordinary
    fate = torch.rand(ids.shape, generator=generator)
    random_ids = torch.randint(N_SPECIAL, vocab_size, ids.shape, generator=generator)
    masked = ids.clone()
    masked[chosen & (fate < 0.8)] = MASK_ID
    swap = chosen & (fate >= 0.8) & (fate < 0.9)
    masked[swap] = random_ids[swap]
    labels = torch.where(chosen, ids, torch.full_like(ids, IGNORE_INDEX))
    return masked, labels
