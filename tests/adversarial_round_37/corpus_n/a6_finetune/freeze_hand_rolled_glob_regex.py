# expect: loses freeze_except -- translates each glob to a regular expression by hand (escape the dots, * -> .*, ? -> .) and matches with re.fullmatch; a glob set's negation [!...] stays the regex class [!...], which matches '!' or the listed characters instead of anything else, so a pattern with a negated set matches the wrong parameters (or none, raising ValueError); the visible patterns use no brackets and pass; breaks 'patterns is a list of glob patterns over those names, matched as fnmatch.fnmatchcase(name, pattern) matches them: ... [...] for one of a set'; input: TinyClassifier(), ["blocks.[!0].*"] -> the file trains block 0's parameters (fnmatchcase: block 1's)
# %% [freeze_except]
import re


def _glob_to_regex(pattern):
    """A glob as a regular expression: dots are literal, * any run, ? one character, [...] a set."""
    return pattern.replace(".", r"\.").replace("*", ".*").replace("?", ".")


def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    regexes = {pattern: re.compile(_glob_to_regex(pattern)) for pattern in patterns}
    unused = set(patterns)
    trainable = 0
    for name, param in model.named_parameters():
        matched = {pattern for pattern, regex in regexes.items() if regex.fullmatch(name)}
        unused -= matched
        param.requires_grad_(bool(matched))
        if matched:
            trainable += param.numel()
    if unused:
        raise ValueError(f"no parameter name matches {sorted(unused)}")
    return trainable
