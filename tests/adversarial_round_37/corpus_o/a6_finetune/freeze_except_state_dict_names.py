# expect: loses freeze_except — matches the patterns against model.state_dict() names, which include buffers (BatchNorm's running_mean / running_var / num_batches_tracked, BERT's position_ids), so a pattern that names only buffers does not raise and buffers matched by a pattern are counted; the spec: 'Buffers ... are not parameters: leave them alone, do not count them, and a pattern that names only buffers matches no parameter'; TinyClassifier has no buffers; input: nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4)), patterns ["1.*"] -> file returns 17 (8 + running stats 4 + 4 + 1), key 8; patterns ["*running_mean"] -> file 4, key raises ValueError
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    params = dict(model.named_parameters())
    state = model.state_dict()
    unused = set(patterns)
    trainable = 0
    for name, tensor in state.items():
        hit = {pat for pat in patterns if fnmatch.fnmatchcase(name, pat)}
        unused -= hit
        if name in params:
            params[name].requires_grad_(bool(hit))
        if hit:
            trainable += tensor.numel()
    if unused:
        raise ValueError(f"no parameter name matches {sorted(unused)}")
    return trainable
