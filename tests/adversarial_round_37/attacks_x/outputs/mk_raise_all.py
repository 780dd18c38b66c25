"""mk_raise_all.py AID EXC OUT.py: an attack file whose every answer cell is the key's, with each public function it
defines wrapped so that it raises EXC when the part's visible test function (_test_<part>) is not defined, i.e. in
the fresh process of the hidden checks (visible tests pass as the key's)."""
import ast, json, sys
aid, exc, out = sys.argv[1:4]
rel = json.load(open(f"/tmp/ax/course/release/{aid}/{aid}.ipynb"))
sol = json.load(open(f"/tmp/ax/solutions/{aid}/{aid}.ipynb"))
scells = sol["cells"][1:] if len(sol["cells"]) == len(rel["cells"]) + 1 else sol["cells"]
lines = [f"# expect: every part 0 and graded (the answer key, each function raising {exc} at once on every hidden call: the jailed key answers within half the limit)"]
for rc, sc in zip(rel["cells"], scells):
    m = rc.get("metadata", {}).get("nbgrader", {})
    if rc["cell_type"] == "code" and m.get("solution"):
        gid, src = m["grade_id"], "".join(sc["source"])
        names = [n.name for n in ast.parse(src).body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")]
        test = f"_test_{gid}"
        lines.append(f"# %% [{gid}]")
        lines.append(src.rstrip() + "\n\n")
        lines.append(f"def _hidden_raises(f, test={test!r}):\n    def g(*a, **k):\n        if test not in globals():\n            raise {exc}('hidden')\n        return f(*a, **k)\n    return g\n\n")
        lines += [f"{n} = _hidden_raises({n})" for n in names]
        lines.append("")
open(out, "w").write("\n".join(lines) + "\n")
