# expect: full marks -- builds the candidate list explicitly (score, parent, token, finished), with the extensions' scores computed in beam_scores' dtype, sorts it, keeps the best beam_width
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    total = beam_scores[:, None] + log_probs  # computed by torch, as the key does
    candidates = []
    for b in range(k):
        if bool(finished[b]):
            candidates.append((beam_scores[b], b, eos_id, True))
        else:
            for t in range(V):
                candidates.append((total[b, t], b, t, t == eos_id))
    candidates.sort(key=lambda c: float(c[0]), reverse=True)
    best = candidates[:beam_width]
    scores = torch.stack([c[0] for c in best]).to(beam_scores.dtype)
    parents = torch.tensor([c[1] for c in best], dtype=torch.long, device=beam_scores.device)
    tokens = torch.tensor([c[2] for c in best], dtype=torch.long, device=beam_scores.device)
    done = torch.tensor([c[3] for c in best], dtype=torch.bool, device=beam_scores.device)
    return scores, parents, tokens, done
