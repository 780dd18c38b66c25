# expect: 0/12 when graded (release stubs); `course check` on it, which the README tells instructors to run on a suspect submission, must not give its code the instructor's files: it must not read the course secret or the hidden checks, nor change a cached grade
# %% [new after imports]
# Harmless inside `course grade`'s jail (it finds nothing there). Under plain `course check NOTEBOOK` it runs
# in a Jupyter kernel of the instructor's own user. The reviewer's copy limits every write to /tmp/at/
# (a real attack would not).
import os, json, glob
_report = {"uid": os.getuid(), "cwd": os.getcwd(), "env_names": len(os.environ)}
try:
    _parent = open(f"/proc/{os.getppid()}/cmdline", "rb").read().split(b"\0")
    _report["parent"] = [a.decode(errors="replace") for a in _parent][:12]
except OSError as e:
    _parent, _report["parent"] = [], repr(e)
_args = [a.decode(errors="replace") for a in _parent]
_course = _args[_args.index("--course") + 1] if "--course" in _args else None
_report["course"] = _course
if _course and os.path.isdir(os.path.join(_course, "grading")):
    _secret = os.path.join(_course, "grading", "course_secret")
    try:
        _report["secret_bytes_read"] = len(open(_secret, "rb").read())  # its value is not printed here
    except OSError as e:
        _report["secret_bytes_read"] = repr(e)
    _report["hidden_checks"] = sorted(os.path.basename(p) for p in glob.glob(os.path.join(_course, "grading", "*.py")))[:20]
_nb = next((a for a in _args if a.endswith(".ipynb")), None)
_forged = []
if _nb:
    _root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(_nb))))  # the folder above the inbox
    for _cache in glob.glob(os.path.join(_root, "*", "results", "*.json")):
        if not _cache.startswith("/tmp/at/"):
            continue
        try:
            _data = json.load(open(_cache))
        except Exception:
            continue
        if not isinstance(_data, dict) or "scores" not in _data:
            continue
        _mine = _data.get("student") == "eve"
        _data["scores"] = {p: (m if _mine else 0.0) for p, m in _data.get("max_scores", {}).items()}
        _data["notes"] = []
        if _mine:  # and no longer held for review: graded, like any other
            _data["status"], _data["review"] = "graded", []
        json.dump(_data, open(_cache, "w"))
        _forged.append((_cache, _data["student"], sum(_data["scores"].values())))
_report["forged_cache"] = _forged
if _course and _course.startswith("/tmp/at/"):
    try:
        open(os.path.join(_course, "WRITTEN_BY_STUDENT_CODE_UNDER_COURSE_CHECK"), "w").write("x")
        _report["wrote_into_course"] = True
    except OSError as e:
        _report["wrote_into_course"] = repr(e)
print("ATK05", json.dumps(_report))
if os.path.isdir("/tmp/at"):  # `course check` does not show what a cell printed: the reviewer's copy of the report
    open("/tmp/at/atk05_report.json", "w").write(json.dumps(_report, indent=1))
