# expect: loses freeze_except -- "Buffers (`model.named_buffers()`: BatchNorm's running statistics, BERT's `position_ids`) are not parameters: leave them alone ...": names are read from `model.state_dict()` and zipped with `model.parameters()`; without buffers the two listings are the same sequence (TinyClassifier has none), but a state_dict also lists every buffer (a BatchNorm's running_mean, running_var, num_batches_tracked), so from the first buffer on each parameter is judged by another entry's name: the wrong parameters are frozen, trainable numbers are miscounted, and a pattern naming only a buffer can "match"
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    unmatched = list(patterns)
    total = 0
    for name, param in zip(model.state_dict().keys(), model.parameters()):
        hit = [p for p in patterns if fnmatch.fnmatchcase(name, p)]
        unmatched = [p for p in unmatched if p not in hit]
        param.requires_grad = bool(hit)
        if hit:
            total += param.numel()
    if unmatched:
        raise ValueError(f"no parameter matches {unmatched[0]!r}")
    return total
