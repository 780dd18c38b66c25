# expect: loses beam_search -- blocks a finished beam's extensions by ADDING -inf to its row (beam_scores + log_probs + where(finished, -inf, 0)) instead of overwriting the row; the spec says a finished beam's log_probs row 'means nothing', and when it holds NaN or +inf (a decoder that stops computing finished beams, or a masked softmax) the sum is NaN, which topk ranks above every real score, so NaN candidates are kept; the visible rows are finite and pass; breaks 'every finished beam carried over unchanged ... (a finished beam is never extended; its log_probs row means nothing)'; input: the visible example with finished = [True, False] and log_probs[0] = nan -> scores [nan, nan] (key: [log 0.6, log 0.32])
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    blocked = torch.where(finished, float("-inf"), 0.0)  # (k,): -inf for a finished beam, 0 otherwise
    extended = beam_scores[:, None] + log_probs + blocked[:, None]  # a finished beam is never extended...
    carried = beam_scores + torch.where(finished, 0.0, float("-inf"))  # ... but carried over as it is
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)
    is_carried = index >= k * V
    parents = torch.where(is_carried, index - k * V, index // V)
    tokens = torch.where(is_carried, eos_id, index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
