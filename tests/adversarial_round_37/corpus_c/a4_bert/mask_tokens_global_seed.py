# expect: loses mask_tokens -- reseeds torch's global generator with the seed and draws from it, instead of one generator of its own; spec: "Make one generator, generator = torch.Generator().manual_seed(seed), and draw every random number from it"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    torch.manual_seed(seed)  # the same seed gives the same masking
    probs = torch.full(input_ids.shape, mask_prob)
    probs[input_ids < N_SPECIAL] = 0.0
    chosen = torch.bernoulli(probs).bool()
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    to_mask = torch.bernoulli(torch.full(input_ids.shape, 0.8)).bool() & chosen
    to_random = torch.bernoulli(torch.full(input_ids.shape, 0.5)).bool() & chosen & ~to_mask
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape)
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels
