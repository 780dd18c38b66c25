# expect: loses beam_search -- reserves slots for every finished beam and fills only the remaining slots with extensions, so a finished beam survives even when beam_width extensions score higher; spec: "Keep the beam_width candidates with the highest scores, over all beams and tokens together, in descending order of score"
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    done_beams = finished.nonzero().flatten()
    n_done = min(len(done_beams), beam_width)
    done_scores, order = beam_scores[done_beams].topk(n_done)  # finished hypotheses are kept
    done_beams = done_beams[order]
    extended = (beam_scores[:, None] + log_probs).masked_fill(finished[:, None], float("-inf")).flatten()
    ext_scores, ext_index = extended.topk(beam_width - n_done)  # the best extensions fill the other slots
    scores = torch.cat([done_scores, ext_scores])
    parents = torch.cat([done_beams, ext_index // V])
    tokens = torch.cat([torch.full_like(done_beams, eos_id), ext_index % V])
    done = torch.cat([torch.ones(n_done, dtype=torch.bool), ext_index % V == eos_id])
    best = scores.argsort(descending=True)
    return scores[best], parents[best], tokens[best], done[best]
