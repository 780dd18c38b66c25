# expect: full marks -- two-stage top-k: each unfinished beam's best min(beam_width, V) extensions first (the global best beam_width can hold no more of one row), then the global top-k over those and the carried finished beams, with parents and tokens gathered from candidate tables
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    extended = (beam_scores[:, None] + log_probs).masked_fill(finished[:, None], float("-inf"))
    per_row = min(beam_width, V)
    row_scores, row_tokens = extended.topk(per_row, dim=-1)  # (k, per_row)
    carried = beam_scores.masked_fill(~finished, float("-inf"))
    cand_scores = torch.cat([row_scores.reshape(-1), carried])
    cand_parents = torch.cat([torch.arange(k).repeat_interleave(per_row), torch.arange(k)])
    cand_tokens = torch.cat([row_tokens.reshape(-1), torch.full((k,), eos_id, dtype=torch.long)])
    cand_carried = torch.cat([torch.zeros(k * per_row, dtype=torch.bool), torch.ones(k, dtype=torch.bool)])
    scores, best = cand_scores.topk(beam_width)
    tokens = cand_tokens[best]
    return scores, cand_parents[best], tokens, cand_carried[best] | (tokens == eos_id)
