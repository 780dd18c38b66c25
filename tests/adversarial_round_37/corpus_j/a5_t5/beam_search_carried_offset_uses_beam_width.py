# expect: loses beam_search -- the carried (finished) candidates are located at index >= beam_width * V instead of k * V, right only when k == beam_width: k=3 beams, beam_width=2, finished=[True, False, False] with beam 2 holding the best extension decodes it as a carried beam
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    V = log_probs.shape[1]
    candidates = beam_scores.unsqueeze(1) + log_probs
    candidates = torch.where(finished.unsqueeze(1), torch.full_like(candidates, float("-inf")), candidates)
    carried = torch.where(finished, beam_scores, torch.full_like(beam_scores, float("-inf")))
    all_scores = torch.cat([candidates.flatten(), carried])
    scores, index = torch.topk(all_scores, beam_width)
    from_carried = index >= beam_width * V  # the carried beams come after the beam_width * V extensions
    parents = torch.where(from_carried, index - beam_width * V, index // V)
    tokens = torch.where(from_carried, torch.full_like(index, eos_id), index % V)
    return scores, parents, tokens, from_carried | (tokens == eos_id)
