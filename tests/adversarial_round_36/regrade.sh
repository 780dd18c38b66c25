#!/usr/bin/env bash
# Re-grade every case under /tmp/adv/subs with a given checkout's `course`.
# usage: [RECORD=1] regrade.sh REPO OUT [SUBS]   (REPO: the checkout whose .venv/bin/course and assignments/ to use;
#        RECORD=1 also records in that checkout's nbgrader gradebook, default is --dry-run)
set -u
REPO=$(cd "${1:?repo checkout}" && pwd)
OUT=${2:?out folder}
SUBS=${3:-/tmp/adv/subs}
mkdir -p "$OUT"
export PATH="$REPO/.venv/bin:$PATH"
status=0
for a in a1_attention a2_blocks a3_gpt a4_bert a5_t5 a6_finetune; do
  [ -d "$SUBS/$a" ] || continue
  echo "=== $a"
  "$REPO/.venv/bin/course" --course "$REPO/assignments" grade "$a" "$SUBS/$a" --out "$OUT/$a" --jobs 2 ${RECORD:+} $( [ "${RECORD:-0}" = 1 ] || echo --dry-run ) \
      > "$OUT/$a.log" 2>&1 || status=1
  tail -n 60 "$OUT/$a.log"
done
# raw control characters (C0 other than tab/newline/CR, DEL, C1) in any report
python3 - "$OUT" <<'PY'
import pathlib, re, sys
bad = re.compile(r'[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f]')
for p in sorted(pathlib.Path(sys.argv[1]).rglob('*')):
    if p.is_file() and p.suffix in ('.csv', '.txt', '.json', '.html', '.log'):
        t = p.read_text(errors='replace')
        n = len(bad.findall(t))
        if n:
            print(f'control characters: {p}: {n}')
PY
exit $status
