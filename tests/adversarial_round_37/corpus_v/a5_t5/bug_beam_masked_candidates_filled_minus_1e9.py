# expect: loses beam_search -- the impossible candidates (extensions of finished beams, carries of unfinished ones) are filled with -1e9 instead of -inf: once real scores lie below -1e9 (long outputs, log-probabilities of filtered tokens such as -1e10), a filler outranks them: beam_scores [-2e9, -3e9], finished [True, False], log_probs of 3 tokens around -1, beam_width 3 -> the answer returns a -1e9 "extension" of the finished beam; at ordinary scores it agrees with the key
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    NEG = -1e9  # far below any log-probability
    extended = (beam_scores[:, None] + log_probs).masked_fill(finished[:, None], NEG)
    carried = beam_scores.masked_fill(~finished, NEG)
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, torch.full_like(index, eos_id), index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
