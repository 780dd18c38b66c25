# expect: loses beam_search  -- enumerates candidates in Python with .item() and rebuilds scores with torch.tensor(list of floats): float32 whatever beam_scores' dtype (and float64 sums lose precision); spec: "scores (the dtype of beam_scores): their scores"
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    candidates = []  # (score, parent, token, finished)
    k, V = log_probs.shape
    for b in range(k):
        if finished[b]:
            candidates.append((beam_scores[b].item(), b, eos_id, True))
            continue
        for t in range(V):
            candidates.append((beam_scores[b].item() + log_probs[b, t].item(), b, t, t == eos_id))
    candidates.sort(key=lambda c: c[0], reverse=True)
    best = candidates[:beam_width]
    return (torch.tensor([c[0] for c in best]),
            torch.tensor([c[1] for c in best], dtype=torch.long),
            torch.tensor([c[2] for c in best], dtype=torch.long),
            torch.tensor([c[3] for c in best], dtype=torch.bool))
