# expect: full marks -- builds the candidate list explicitly with boolean indexing: the extensions of the unfinished beams only (their parents by repeat_interleave, their tokens by repeat), then the finished beams carried with eos_id, and sorts all the scores once in descending order (no -inf placeholders, so a finished beam's log_probs row, whatever it holds, never enters); dtypes promoted as the key's (float64 scores where beam_scores is float64); same four tensors as the key on random steps without ties, k = 1 and several, all or no beams finished, beam_width up to the number of candidates
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    live = ~finished
    n_live, n_done = int(live.sum()), int(finished.sum())
    extension_scores = (beam_scores[live, None] + log_probs[live]).reshape(-1)  # (n_live * V,)
    scores = torch.cat([extension_scores, beam_scores[finished]])  # then the carried beams
    parents = torch.cat([torch.arange(k)[live].repeat_interleave(V), torch.arange(k)[finished]])
    tokens = torch.cat([torch.arange(V).repeat(n_live), torch.full((n_done,), eos_id, dtype=torch.long)])
    done = torch.cat([torch.zeros(n_live * V, dtype=torch.bool), torch.ones(n_done, dtype=torch.bool)]) | (tokens == eos_id)
    best = torch.sort(scores, descending=True).indices[:beam_width]
    return scores[best], parents[best], tokens[best], done[best]
