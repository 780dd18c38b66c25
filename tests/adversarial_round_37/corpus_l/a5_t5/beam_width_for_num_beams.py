# expect: loses beam_search -- the index arithmetic uses beam_width * V as the number of extensions, where it is k * V (k = the number of beams given); right whenever k == beam_width, as in both visible calls, wrong at the first step's one beam only when something is carried, and wrong whenever k != beam_width otherwise; breaks "for k beams (k may differ from beam_width ...)"; input: log_probs = log([[0.5, 0.3, 0.2], [0.1, 0.2, 0.7]]), beam_scores = log([0.6, 0.4]), finished = [True, False], beam_width = 3, eos_id = 0 -> the carried beam gets parent 2 (spec: parent 0); with k = 3 > beam_width = 2 the third beam's extensions are read as carried beams
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    V = log_probs.shape[1]
    extended = (beam_scores[:, None] + log_probs).masked_fill(finished[:, None], float("-inf"))
    carried = torch.where(finished, beam_scores, torch.full_like(beam_scores, float("-inf")))
    scores, index = torch.cat([extended.flatten(), carried]).topk(beam_width)
    n_ext = beam_width * V  # the extensions come first: V per beam
    is_carried = index >= n_ext
    parents = torch.where(is_carried, index - n_ext, index // V)
    tokens = torch.where(is_carried, torch.full_like(index, eos_id), index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
