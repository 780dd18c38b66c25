import json, copy, sys, traceback, warnings
from pathlib import Path
sys.path.insert(0, '/work/main')
warnings.simplefilter("ignore")
import nbformat
from course_grading.notebook.canonical import canonical
from course_grading.grade import content_key
rel = nbformat.read('/work/main/assignments/release/a1_attention/a1_attention.ipynb', as_version=4)
base = json.load(open('/tmp/ar/inbox1/ctl_key/a1_attention.ipynb'))
def v(name, f):
    nb = copy.deepcopy(base)
    r = f(nb)
    if r is not None: nb = r
    p = Path(f'/tmp/ar/fz/{name}.ipynb'); p.parent.mkdir(exist_ok=True)
    p.write_text(nb if isinstance(nb, str) else json.dumps(nb))
    try:
        c, notes = canonical(p, rel, Path('/tmp/ar/course/release'))
        content_key(c, Path('/tmp/ar/course'), 'a1_attention')
        print(f"{name:30} ok  {'None' if c is None else len(c.cells)} {str(notes)[:150]}")
    except Exception as e:
        print(f"{name:30} RAISED {type(e).__name__}: {str(e)[:150]}")
def setk(path, val):
    def f(nb):
        o = nb
        for k in path[:-1]: o = o[k]
        o[path[-1]] = val
    return f
ans = 3  # sdpa cell index
v('nbformat5', setk(['nbformat'], 5))
v('nbformat3', setk(['nbformat'], 3))
v('nbformat_str', setk(['nbformat'], "4"))
v('minor_99', setk(['nbformat_minor'], 99))
v('minor_neg', setk(['nbformat_minor'], -1))
v('cells_dict', setk(['cells'], {}))
v('cell_int', lambda nb: nb['cells'].insert(2, 5))
v('cell_list', lambda nb: nb['cells'].insert(2, [1]))
v('meta_list', setk(['cells', ans, 'metadata'], [1]))
v('nbg_list', setk(['cells', ans, 'metadata', 'nbgrader'], [1]))
v('nbg_str', setk(['cells', ans, 'metadata', 'nbgrader'], "x"))
v('gid_dict', setk(['cells', ans, 'metadata', 'nbgrader', 'grade_id'], {"a": 1}))
v('gid_unhashable_list', setk(['cells', ans, 'metadata', 'nbgrader', 'grade_id'], ["sdpa"]))
v('source_int', setk(['cells', ans, 'source'], 5))
v('source_list_ints', setk(['cells', ans, 'source'], [1, 2]))
v('source_list_none', setk(['cells', ans, 'source'], [None]))
v('source_dict', setk(['cells', ans, 'source'], {"a": "b"}))
v('celltype_none', setk(['cells', ans, 'cell_type'], None))
v('celltype_weird', setk(['cells', ans, 'cell_type'], "javascript"))
v('no_celltype', lambda nb: nb['cells'][ans].pop('cell_type'))
v('solution_str', setk(['cells', ans, 'metadata', 'nbgrader', 'solution'], "yes"))
v('id_int', setk(['cells', ans, 'id'], 7))
v('id_long', setk(['cells', ans, 'id'], "x" * 100000))
v('outputs_int', setk(['cells', ans, 'outputs'], 3))
v('toplevel_list', lambda nb: [nb])
v('toplevel_null', lambda nb: "null")
v('bom', lambda nb: "\ufeff" + json.dumps(nb))
v('nan', lambda nb: json.dumps(nb).replace('"execution_count": null', '"execution_count": NaN', 1))
v('big_int', lambda nb: json.dumps(nb).replace('"execution_count": null', '"execution_count": ' + '9'*5000, 1))
v('big_int_meta', lambda nb: json.dumps(nb)[:-1] + ', "x": ' + '9' * 5000 + '}')
v('dup_keys', lambda nb: json.dumps(nb)[:-1] + ', "cells": []}')
v('deep_list_1e5', lambda nb: json.dumps(nb)[:-1] + ', "x": ' + '[' * 100000 + ']' * 100000 + '}')
v('deep_900', lambda nb: json.dumps(nb)[:-1] + ', "x": ' + '{"a":' * 900 + '1' + '}' * 900 + '}')
v('deep_900_list', lambda nb: json.dumps(nb)[:-1] + ', "x": ' + '[' * 900 + ']' * 900 + '}')
v('surrogate_gid', lambda nb: json.dumps(nb).replace('"sdpa"', '"sdpa\\ud800"', 1))
v('nul_in_source', setk(['cells', ans, 'source'], "x = 1\x00\n"))
v('attachments_bad', setk(['cells', ans, 'attachments'], {"a": 5}))
v('metadata_top_list', setk(['metadata'], [1]))
v('kernelspec_bad', setk(['metadata', 'kernelspec'], 5))
v('lang_info_bad', setk(['metadata', 'language_info'], {"name": 5}))
