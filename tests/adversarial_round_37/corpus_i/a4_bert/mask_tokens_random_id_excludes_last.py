# expect: loses mask_tokens -- random ids from randint(N_SPECIAL, vocab_size - 1) (exclusive high, off by one): the id vocab_size - 1 is never drawn; with vocab_size = 7 over many seeds only id 5 appears, never 6
# %% [mask_tokens]
def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    g = torch.Generator().manual_seed(seed)
    ordinary = input_ids >= N_SPECIAL
    chosen = torch.bernoulli(torch.full(input_ids.shape, float(mask_prob)), generator=g).bool() & ordinary
    labels = input_ids.masked_fill(~chosen, IGNORE_INDEX)
    u = torch.rand(input_ids.shape, generator=g)
    rand_ids = torch.randint(N_SPECIAL, vocab_size - 1, input_ids.shape, generator=g)  # ids N_SPECIAL .. vocab_size - 1
    out = input_ids.masked_fill(chosen & (u < 0.8), MASK_ID)
    out = torch.where(chosen & (u >= 0.8) & (u < 0.9), rand_ids, out)
    return out, labels
