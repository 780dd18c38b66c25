# expect: loses beam_search -- keeps finished beams from being extended by adding -1e9 to their rows instead of replacing them: a finished beam's log_probs row "means nothing" and may hold +inf or NaN (a row the model never normalised), and inf - 1e9 = inf, NaN - 1e9 = NaN win the top-k, so a finished beam is extended; spec: "every **finished** beam carried over unchanged, with its score `beam_scores[b]` (a finished beam is never extended; its `log_probs` row means nothing)"
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    penalty = finished.to(log_probs.dtype)[:, None] * -1e9  # a finished beam's extensions can never win
    extended = beam_scores[:, None] + log_probs + penalty  # (k, V)
    carried = beam_scores.masked_fill(~finished, float("-inf"))  # a finished beam is carried over as it is
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)  # over beams and tokens together
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, eos_id, index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
