# expect: full marks -- one uniform per position decides both whether it is chosen (u < mask_prob) and, rescaled as u / mask_prob (uniform on [0, 1) given that it is chosen, independent across positions), its fate: the joint law is exactly the spec's (mask_prob chosen, then 80/10/10); random ids come from randint(N_SPECIAL, vocab_size), all from the one seeded generator, input untouched
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    u = torch.rand(input_ids.shape, generator=generator)
    chosen = (u < mask_prob) & (input_ids >= N_SPECIAL)
    fate = u / mask_prob if mask_prob > 0 else u  # given u < mask_prob: uniform on [0, 1)
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = torch.where(chosen & (fate < 0.8), MASK_ID, input_ids)
    masked_ids = torch.where(chosen & (fate >= 0.8) & (fate < 0.9), random_ids, masked_ids)
    labels = torch.where(chosen, input_ids, IGNORE_INDEX)
    return masked_ids.long(), labels.long()
