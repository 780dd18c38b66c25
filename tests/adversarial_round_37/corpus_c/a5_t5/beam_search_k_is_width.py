# expect: loses beam_search -- offsets the carried beams by beam_width * V instead of k * V, which is right only when k == beam_width; spec: "for k beams (k may differ from beam_width: the first step has one beam)"
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    V = log_probs.shape[1]
    extended = beam_scores[:, None] + log_probs
    extended = extended.masked_fill(finished[:, None], float("-inf"))
    carried = beam_scores.masked_fill(~finished, float("-inf"))
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)
    offset = beam_width * V  # where the carried beams start
    is_carried = index >= offset
    parents = torch.where(is_carried, index - offset, index // V)
    tokens = torch.where(is_carried, eos_id, index % V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
