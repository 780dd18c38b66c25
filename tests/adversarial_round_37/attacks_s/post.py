"""post.py NOTEBOOK: expand the placeholder lines '#EXPAND <text-repr> <count>' in any cell of NOTEBOOK
(made by ../attacks_q/mksub.py) into <text> repeated <count> times (fixtures whose source is too big to keep here)."""
import ast, json, re, sys
path = sys.argv[1]
nb = json.load(open(path))
for c in nb["cells"]:
    src = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
    def rep(m):
        return ast.literal_eval(m.group(1)) * int(m.group(2))
    c["source"] = re.sub(r"^#EXPAND (\S+) (\d+)$", rep, src, flags=re.M)
json.dump(nb, open(path, "w"), indent=1)
import os; print(path, os.path.getsize(path))
