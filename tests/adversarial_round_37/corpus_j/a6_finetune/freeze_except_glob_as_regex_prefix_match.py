# expect: loses freeze_except -- translates the glob to a regex and uses re.match, which only anchors at the start: on TinyClassifier the pattern "head" (a module name) matches head.weight and head.bias and returns 51 instead of raising ValueError
# %% [freeze_except]
import re


def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    regexes = {p: re.compile(re.escape(p).replace(r"\*", ".*").replace(r"\?", ".")) for p in patterns}
    used = {p: False for p in patterns}
    count = 0
    for name, param in model.named_parameters():
        hit = False
        for p, rx in regexes.items():
            if rx.match(name):
                used[p] = True
                hit = True
        param.requires_grad_(hit)
        if hit:
            count += param.numel()
    missing = [p for p, u in used.items() if not u]
    if missing:
        raise ValueError(f"patterns matching no parameter: {missing}")
    return int(count)
