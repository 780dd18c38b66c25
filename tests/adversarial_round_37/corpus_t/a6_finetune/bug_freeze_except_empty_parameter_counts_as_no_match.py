# expect: loses freeze_except  -- "matches no parameter" judged by the numbers each pattern unfroze (a per-pattern numel tally), so a pattern whose only parameters are empty (0 numbers) raises; part 2 raises ValueError only when a pattern matches no parameter; nn.ModuleDict(body=nn.Linear(4, 3), extra=nn.Linear(4, 0)), patterns ["extra.*"]: the key returns 0 (extra.weight (0, 4) and extra.bias (0,) trainable, the rest frozen), the answer raises ValueError; parameters with numbers: equal
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    unfrozen = {pattern: 0 for pattern in patterns}  # how many numbers each pattern makes trainable
    for name, param in model.named_parameters():
        hits = [pattern for pattern in patterns if fnmatch.fnmatchcase(name, pattern)]
        param.requires_grad_(bool(hits))
        for pattern in hits:
            unfrozen[pattern] += param.numel()
    missing = [pattern for pattern, count in unfrozen.items() if count == 0]
    if missing:
        raise ValueError(f"no parameter name matches {missing}")
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
