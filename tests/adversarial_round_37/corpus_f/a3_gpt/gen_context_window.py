# expect: loses generate -- crops the input to the last block_size = 8 tokens as nanoGPT does (toy_lm has no context limit), so once prompt + generated tokens exceed 8 the logits no longer depend on the whole prefix; spec: "At each step run the model on the whole sequence so far, take the logits of the last position"
# %% [generate]
def generate(idx, max_new_tokens, W, U, temperature=1.0, seed=None):
    """idx (B, T) followed by max_new_tokens tokens sampled from toy_lm: (B, T + max_new_tokens)."""
    block_size = 8  # the model's context length
    generator = None if seed is None else torch.Generator().manual_seed(seed)
    for _ in range(max_new_tokens):
        context = idx[:, -block_size:]
        logits = toy_lm(context, W, U)[:, -1, :]
        if temperature == 0:
            next_token = torch.argmax(logits, dim=-1, keepdim=True)
        else:
            probs = F.softmax(logits / temperature, dim=-1)
            next_token = torch.multinomial(probs, num_samples=1, generator=generator)
        idx = torch.cat((idx, next_token), dim=1)
    return idx
