# expect: loses freeze_except -- turns globs into regexes by replacing * with .* and uses re.match: "?" becomes "optional", "." matches any character and the match is not anchored at the end; spec: "matched as fnmatch.fnmatchcase(name, pattern) matches them: * ..., ? for one character, [...] for one of a set, and the pattern must match the whole name"
# %% [freeze_except]
import re


def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    regexes = {pattern: re.compile(pattern.replace("*", ".*")) for pattern in patterns}
    hits = {pattern: 0 for pattern in patterns}
    total = 0
    for name, param in model.named_parameters():
        keep = False
        for pattern, rx in regexes.items():
            if rx.match(name):
                hits[pattern] += 1
                keep = True
        param.requires_grad = keep
        total += param.numel() if keep else 0
    missing = [pattern for pattern, n in hits.items() if n == 0]
    if missing:
        raise ValueError(f"patterns match no parameter: {missing}")
    return int(total)
