#!/bin/bash
# grade.sh RUN ASSIGNMENT STUDENT=FIXTURE ... : build /tmp/az/inbox_RUN/<student>/<assignment>.ipynb with
# mksub.py, grade them with course grade --jobs 1 --dry-run, keep the output in outputs/RUN.txt
set -u
run=$1; aid=$2; shift 2
here=/work/main/tests/adversarial_round_37/attacks_z
rm -rf /tmp/az/inbox_$run /tmp/az/out_$run
for pair in "$@"; do
  st=${pair%%=*}; fx=${pair#*=}
  /work/main/.venv/bin/python $here/outputs/mksub.py $here/$aid/$fx.py /tmp/az/inbox_$run/$st >/dev/null
done
{
  echo "\$ date: $(date)"
  echo "\$ grader code: $(cd /tmp/az && /work/main/.venv/bin/python -c 'import course_grading; print(course_grading.__file__)'), sandbox/calls.py sha256 $(sha256sum /work/main/course_grading/sandbox/calls.py | cut -c1-12), HEAD $(git -C /work/main log -1 --format=%h)"
  echo "\$ course --course ${COURSE:-/tmp/az/course/assignments} grade $aid /tmp/az/inbox_$run --out /tmp/az/out_$run --jobs 1 --dry-run ${EXTRA:-}"
  cd /tmp/az && OMP_NUM_THREADS=1 /usr/bin/time -f "Elapsed %e s, max RSS %M kB" /work/main/.venv/bin/course --course ${COURSE:-/tmp/az/course/assignments} grade $aid /tmp/az/inbox_$run --out /tmp/az/out_$run --jobs 1 --dry-run ${EXTRA:-} 2>&1
  echo "rc=$?"
} > $here/outputs/$run.txt 2>&1
cat $here/outputs/$run.txt | tail -40
