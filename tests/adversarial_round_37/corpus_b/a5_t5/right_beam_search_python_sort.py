# expect: full marks -- enumerates the candidates in a Python list and sorts them, rather than topk over a flat tensor; the scores keep the tensors' dtype
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    totals = beam_scores[:, None] + log_probs  # (k, V), in the promoted dtype
    candidates = []  # (score, parent, token, finished)
    for b in range(k):
        if bool(finished[b]):
            candidates.append((beam_scores[b].to(totals.dtype), b, eos_id, True))
        else:
            candidates += [(totals[b, t], b, t, t == eos_id) for t in range(V)]
    best = sorted(candidates, key=lambda c: c[0].item(), reverse=True)[:beam_width]
    scores = torch.stack([c[0] for c in best])
    parents = torch.tensor([c[1] for c in best], dtype=torch.long)
    tokens = torch.tensor([c[2] for c in best], dtype=torch.long)
    done = torch.tensor([c[3] for c in best], dtype=torch.bool)
    return scores, parents, tokens, done
