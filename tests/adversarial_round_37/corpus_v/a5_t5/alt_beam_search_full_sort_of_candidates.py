# expect: full marks -- the candidates listed as rows of (score, parent, token, finished) tensors, impossible ones dropped by boolean indexing (not filled), sorted descending with torch.sort and the first beam_width kept; scores in beam_scores + log_probs' dtype
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    open_beams = (~finished).nonzero().flatten()
    done_beams = finished.nonzero().flatten()
    ext = beam_scores[open_beams, None] + log_probs[open_beams]  # (k_open, V)
    cand_scores = torch.cat([ext.reshape(-1), beam_scores[done_beams].to(ext.dtype)])
    cand_parents = torch.cat([open_beams.repeat_interleave(V), done_beams])
    cand_tokens = torch.cat([torch.arange(V).repeat(open_beams.numel()), torch.full_like(done_beams, eos_id)])
    cand_done = torch.cat([torch.zeros(open_beams.numel() * V, dtype=torch.bool), torch.ones(done_beams.numel(), dtype=torch.bool)])
    order = torch.sort(cand_scores, descending=True).indices[:beam_width]
    tokens = cand_tokens[order]
    return cand_scores[order], cand_parents[order], tokens, cand_done[order] | (tokens == eos_id)
