# expect: loses beam_search -- the parent as (index / V).floor(): true division of int64 gives float32, which rounds a flat index past 2**24 up to the next row, giving parent k and token -1; "parents (torch.long): the beam each extends" with "no fixed limit on its length"; k = 400 beams, V = 50,257, log_probs -20 except [399, 50256] = -0.5, [398, 50255] = -0.6, [10, 3] = -0.7, scores 0, none finished, beam_width 3: key parents [399, 398, 10], tokens [50256, 50255, 3]; this answer parents [400, 398, 10], tokens [-1, 50255, 3]; k = 4: equal
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    extended = beam_scores[:, None] + log_probs  # (k, V)
    extended = extended.masked_fill(finished[:, None], float("-inf"))  # a finished beam is never extended
    carried = beam_scores.masked_fill(~finished, float("-inf"))  # but carried over as it is
    scores, index = torch.cat([extended.reshape(-1), carried]).topk(beam_width)
    is_carried = index >= k * V
    row = (index / V).floor().long()  # the flat index's row of the (k, V) table
    parents = torch.where(is_carried, index - k * V, row)
    tokens = torch.where(is_carried, eos_id, index - row * V)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
