# expect: loses freeze_except -- walks model.state_dict(keep_vars=True) (names as a checkpoint has them) instead of named_parameters(), so buffers are matched, counted and given requires_grad; breaks 'Buffers ... are not parameters: leave them alone, do not count them, and a pattern that names only buffers matches no parameter'; input: m = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4)): freeze_except(m, ["1.*"]) -> key 8, this 17 (running_mean, running_var, num_batches_tracked); freeze_except(m, ["*running_mean"]) -> key ValueError, this 4 (TinyClassifier has no buffers)
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    unused = set(patterns)
    trainable = 0
    for name, param in model.state_dict(keep_vars=True).items():  # every named tensor of the model
        matched = {pattern for pattern in patterns if fnmatch.fnmatchcase(name, pattern)}
        unused -= matched
        if param.is_floating_point():
            param.requires_grad_(bool(matched))  # trainable if a pattern names it, frozen otherwise
        if matched:
            trainable += param.numel()
    if unused:
        raise ValueError(f"no parameter name matches {sorted(unused)}")
    return trainable
