# expect: loses freeze_except -- a home-made glob (re.escape, then * -> .*, ? -> .) that treats [...] as literal brackets; spec: "glob patterns ... matched as fnmatch.fnmatchcase(name, pattern) matches them: * ..., ? for one character, [...] for one of a set"
# %% [freeze_except]
import re


def _glob(pattern):
    return re.compile(re.escape(pattern).replace(r"\*", ".*").replace(r"\?", ".") + r"\Z")


def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    compiled = {pattern: _glob(pattern) for pattern in patterns}
    used, trainable = set(), 0
    for name, param in model.named_parameters():
        hits = {p for p, rx in compiled.items() if rx.match(name)}
        used |= hits
        param.requires_grad_(bool(hits))
        trainable += param.numel() if hits else 0
    missing = [p for p in patterns if p not in used]
    if missing:
        raise ValueError(f"no parameter matches {missing}")
    return trainable
