# expect: loses beam_search -- locates the carried-beam block at beam_width * V instead of k * V (the number of beams given): wrong parents/tokens whenever k != beam_width (e.g. the first step, k = 1)
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    V = log_probs.shape[-1]
    ext = (beam_scores.unsqueeze(1) + log_probs).masked_fill(finished.unsqueeze(1), float("-inf"))
    carry = torch.where(finished, beam_scores, torch.full_like(beam_scores, float("-inf")))
    flat = torch.cat([ext.flatten(), carry])
    scores, index = torch.topk(flat, beam_width)
    offset = beam_width * V  # where the carried beams start
    is_carried = index >= offset
    parents = torch.where(is_carried, index - offset, index // V)
    tokens = torch.where(is_carried, torch.full_like(index, eos_id), index % V)
    done = is_carried | (tokens == eos_id)
    return scores, parents, tokens, done
