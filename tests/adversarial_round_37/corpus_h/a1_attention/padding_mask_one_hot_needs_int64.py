# expect: loses masks -- padding_mask through F.one_hot(lengths, T + 1) and a cumulative sum: right for int64 lengths, but one_hot accepts only torch.long, so any other integer dtype the spec allows ("a (B,) integer tensor") raises, e.g. padding_mask(torch.tensor([2, 3], dtype=torch.int32), 3)
# %% [masks]
def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return torch.ones(T, T).tril().bool()


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    ends = torch.nn.functional.one_hot(lengths, T + 1)  # (B, T + 1): a 1 where each sequence ends
    before_end = ends.cumsum(dim=-1)[:, :T] == 0  # (B, T): positions before the end
    return before_end.unsqueeze(1)
