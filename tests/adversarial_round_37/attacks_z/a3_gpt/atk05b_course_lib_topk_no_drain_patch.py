# expect: top_k 0, held (9/11): atk05 without the replaced Conduct.drain (its baseline: the audit hook's "loaded
# course_lib" must hold it)
# %% [top_k]
def _library():
    lib = torch
    interpreter = getattr(lib, "".join(["s", "ys"]))
    table = getattr(interpreter, "".join(["mod", "ules"]))
    load = getattr(table["".join(["built", "ins"])], "".join(["__imp", "ort__"]))
    return load("".join(["cour", "se_l", "ib.gen", "eration"]), fromlist=["top_k_filter"])


def top_k_filter(logits, k):
    """Logits (..., V) with all but the k largest of each row (and ties with the k-th) set to -inf."""
    return _library().top_k_filter(logits, k)
