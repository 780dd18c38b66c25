# expect: loses mask_tokens (special ids excluded with `input_ids > N_SPECIAL`, one too many: the first ordinary id, 5, is never chosen: input_ids all 5 (4, 64), mask_prob 1: the answer's labels are all -100, the key's all 5; a batch of ids from 6 up (or random ids over a large vocabulary, the visible test) looks right)
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    ordinary = input_ids > N_SPECIAL  # past the special ids
    chosen = (torch.rand(input_ids.shape, generator=generator) < mask_prob) & ordinary
    fate = torch.rand(input_ids.shape, generator=generator)  # < 0.8 [MASK], < 0.9 random, else kept
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    masked_ids = torch.where(chosen & (fate < 0.8), torch.full_like(input_ids, MASK_ID), input_ids)
    masked_ids = torch.where(chosen & (fate >= 0.8) & (fate < 0.9), random_ids, masked_ids)
    return masked_ids, labels
