# expect: loses mask_tokens -- chooses exactly round(mask_prob * n) of each row's n ordinary tokens (a random subset of fixed size); spec: "each position with probability mask_prob, independently of the others", "how many tokens a row or a batch gets varies from seed to seed (no fixed number, no minimum)"
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    generator = torch.Generator().manual_seed(seed)
    ordinary = input_ids >= N_SPECIAL
    chosen = torch.zeros_like(ordinary)
    for row in range(input_ids.shape[0]):
        places = ordinary[row].nonzero().flatten()
        n = round(mask_prob * len(places))
        chosen[row, places[torch.randperm(len(places), generator=generator)[:n]]] = True
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    to_mask = torch.bernoulli(torch.full(input_ids.shape, 0.8), generator=generator).bool() & chosen
    to_random = torch.bernoulli(torch.full(input_ids.shape, 0.5), generator=generator).bool() & chosen & ~to_mask
    random_ids = torch.randint(N_SPECIAL, vocab_size, input_ids.shape, generator=generator)
    masked_ids = input_ids.masked_fill(to_mask, MASK_ID)
    masked_ids = torch.where(to_random, random_ids, masked_ids)
    return masked_ids, labels
