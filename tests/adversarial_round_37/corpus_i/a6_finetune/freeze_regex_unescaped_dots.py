# expect: loses freeze_except -- translates the glob to a regex by hand (* -> .*, ? -> .) without escaping the dots: "blocks.1.*" also matches blocks.10.* and blocks.11.* (a model with 12 blocks: freeze_except(model, ["blocks.1.*"]) unfreezes and counts three blocks)
# %% [freeze_except]
import re


def _glob_to_regex(pattern):
    return re.compile(pattern.replace("*", ".*").replace("?", "."))


def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    regexes = [(p, _glob_to_regex(p)) for p in patterns]
    used = set()
    total = 0
    for name, param in model.named_parameters():
        hits = [p for p, rx in regexes if rx.fullmatch(name)]
        used.update(hits)
        param.requires_grad = bool(hits)
        total += param.numel() if hits else 0
    missing = [p for p in patterns if p not in used]
    if missing:
        raise ValueError(f"pattern(s) {missing} match no parameter")
    return int(total)
