# expect: mask_tokens 0/3 (control for atk05: the same code, torch.save left alone)
# %% [mask_tokens]
# The key's masking drawn from torch's *global* generator, reseeded with the seed (its draws equal the
# key's: the same stream). The global-state rule is judged on a flag the student's process sends
# ("global_rng_moved"); torch.save, which writes every reply, is replaced (``self.save = ...``, torch passed
# as ``self``: no scan evidence) by one that sets that flag to False.
def _install(self, keep):
    original = [self.save]

    def save(obj, f, *args, **kwargs):
        if type(obj) is dict and "global_rng_moved" in obj:
            obj = dict(obj, global_rng_moved=False)
        return original[0](obj, f, *args, **kwargs)

    if keep:
        self.save = save


_install(torch, False)


def mask_tokens(input_ids, vocab_size, seed, mask_prob=0.15):
    """BERT's masking of input_ids (B, T): returns (masked_ids, labels), both (B, T) torch.long."""
    torch.manual_seed(seed)  # the global generator, reseeded
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
