# expect: loses mask_tokens -- seeds and draws from torch's global RNG instead of its own generator (reproducible, but it resets everyone else's random stream and depends on it); spec: "Make one generator, generator = torch.Generator().manual_seed(seed), and draw every random number from it"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    torch.manual_seed(seed)
    ordinary = input_ids >= N_SPECIAL
    chosen = (torch.rand(input_ids.shape) < mask_prob) & ordinary
    fate = torch.rand(input_ids.shape)
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape)
    masked_ids = input_ids.clone()
    masked_ids[chosen & (fate < 0.8)] = MASK_ID
    to_random = chosen & (fate >= 0.8) & (fate < 0.9)
    masked_ids[to_random] = random_ids[to_random]
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, IGNORE_INDEX))
    return masked_ids.long(), labels.long()
