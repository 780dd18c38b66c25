# expect: loses beam_search -- writes token 0 (the pad id) for a carried finished beam instead of eos_id; spec: "tokens (torch.long): the token appended, and eos_id for a carried finished beam"
# %% [beam_search]
def beam_search_step(log_probs, beam_scores, finished, beam_width, eos_id):
    """One step of beam search: returns (scores, parents, tokens, finished), each (beam_width,), best first."""
    k, V = log_probs.shape
    # column V holds "stay as you are": only finished beams may take it, only finished beams lose the others
    table = torch.cat([beam_scores[:, None] + log_probs, beam_scores[:, None]], dim=1)  # (k, V + 1)
    allowed = torch.cat([(~finished)[:, None].expand(k, V), finished[:, None]], dim=1)
    table = table.masked_fill(~allowed, float("-inf"))
    scores, flat = table.flatten().topk(beam_width)
    parents, column = flat // (V + 1), flat % (V + 1)
    stay = column == V
    tokens = column.masked_fill(stay, 0)  # a carried beam appends nothing
    return scores, parents, tokens, stay | (tokens == eos_id)
