# expect: loses mask_tokens — flattens input_ids with .view(-1) to draw over a 1-D sequence, which raises for a non-contiguous input_ids (a transpose or a slice of a larger batch), allowed by 'its tensor arguments may be any tensors of the shapes its part gives, contiguous or not (use reshape, not view)'; input: ids = randint(5, 100, (8, 6)).T (a (6, 8) transpose) -> file RuntimeError, key returns masked ids
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    flat = input_ids.view(-1)  # one long sequence: every position drawn the same way
    n = flat.numel()
    chosen = (torch.rand(n, generator=generator) < mask_prob) & (flat >= N_SPECIAL)
    fate = torch.rand(n, generator=generator)
    random_ids = torch.randint(N_SPECIAL, vocab_size, (n,), generator=generator)
    masked = torch.where(chosen & (fate < 0.8), torch.full_like(flat, MASK_ID), flat)
    masked = torch.where(chosen & (fate >= 0.8) & (fate < 0.9), random_ids, masked)
    labels = torch.where(chosen, flat, torch.full_like(flat, IGNORE_INDEX))
    return masked.view(input_ids.shape), labels.view(input_ids.shape)
