# expect: loses beam_search  -- writes token 0 (the pad id) for a carried finished beam instead of eos_id (the visible test uses eos_id = 0, so it cannot tell); spec: "tokens (torch.long): the token appended, and eos_id for a carried finished beam"
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    ext = beam_scores.unsqueeze(1) + log_probs
    ext = torch.where(finished.unsqueeze(1), torch.full_like(ext, float("-inf")), ext)
    # a finished beam competes as one extra candidate per beam: column V
    carried = torch.where(finished, beam_scores, torch.full_like(beam_scores, float("-inf"))).unsqueeze(1)
    table = torch.cat([ext, carried], dim=1)  # (k, V + 1)
    scores, flat = table.reshape(-1).topk(beam_width)
    parents, col = flat // (V + 1), flat % (V + 1)
    is_carried = col == V
    tokens = torch.where(is_carried, torch.zeros_like(col), col)  # a finished beam appends padding
    return scores, parents, tokens, is_carried | (tokens == eos_id)
