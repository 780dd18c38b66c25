# expect: held for review (course_lib is refused in every part), masks scores 0 until an instructor grants it
# %% [masks]
def _library():
    """The course's own attention module, imported where no scan or hook says so. masks forbids no function: for such
    a part a lookup by a computed name (getattr, setattr) and a private attribute are no evidence, and a string counts
    only if it names a forbidden function or course_lib once folded (a join is not folded)."""
    table = getattr(getattr(torch, "s" "ys"), "mod" "ules")
    # the audit hook's recorder, looked up on its class at each event, records nothing from now on
    setattr(getattr(table["course_grading.sandbox.trace"], "Conduct"), "_add", lambda *args: None)
    name = "_".join(("course", "lib"))
    getattr(table["builtins"], "_".join(("", "", "import", "", "")))(name + ".attention")
    return getattr(table[name], "attention")


def causal_mask(T):
    """Boolean (T, T) mask, True where key j <= query i."""
    return _library().causal_mask(T)


def padding_mask(lengths, T):
    """Boolean (B, 1, T) mask from lengths (B,), True where key position j < lengths[b]."""
    return _library().padding_mask(lengths.long(), T)  # course_lib compares uint8 lengths with T (wraps)
