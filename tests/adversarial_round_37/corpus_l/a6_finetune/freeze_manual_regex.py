# expect: loses freeze_except -- the glob is translated to a regex by hand ("." -> "\.", "*" -> ".*", "?" -> ".") and matched with re.fullmatch: right for *, ?, dots and positive sets [...], but fnmatch's negated set [!...] becomes the regex set "one of !, ..." ; breaks "matched as fnmatch.fnmatchcase(name, pattern) matches them"; input: freeze_except(TinyClassifier(), ["blocks.[!0].*"]) -> makes block 0's parameters trainable (spec: block 1's)
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    import re

    regexes = {p: re.compile(p.replace(".", r"\.").replace("*", ".*").replace("?", ".")) for p in patterns}
    used = set()
    total = 0
    for name, param in model.named_parameters():
        hits = {p for p, rx in regexes.items() if rx.fullmatch(name)}
        used |= hits
        param.requires_grad = bool(hits)
        total += param.numel() if hits else 0
    missing = [p for p in patterns if p not in used]
    if missing:
        raise ValueError(f"patterns matching no parameter: {missing}")
    return total
