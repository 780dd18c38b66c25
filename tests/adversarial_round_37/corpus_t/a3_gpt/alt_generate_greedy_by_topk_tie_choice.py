# expect: full marks -- relabelled (stop 71): the grader accepts any of exactly tied largest logits on purpose, and a3's release now says so ("where logits tie exactly for the largest, any of them"); written as: greedy decoding takes logits.topk(1).indices, which on exactly tied maxima may return another of the tied tokens than argmax's first one (which one depends on topk's selection: index 3 of 6 tied here, index 5 of 7 in a (3, 7) row; two tied maxima at 1 and 4 happen to give 1); part 5 says temperature == 0 chooses "the most likely token (argmax)"; W = U = zeros(6, 6) (every logit tied), prompt [[1, 2]], 4 tokens at temperature 0: the key gives [0, 0, 0, 0], the answer [3, 3, 3, 3] (torch 2.13 CPU); untied logits and every sampled step: equal
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    generator = torch.Generator().manual_seed(seed) if seed is not None else None
    for _ in range(max_new_tokens):
        logits = toy_lm(idx, W, U)[:, -1]  # (B, V)
        if temperature == 0:
            token = logits.topk(1, dim=-1).indices  # (B, 1): the most likely token
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat([idx, token], dim=1)
    return idx
