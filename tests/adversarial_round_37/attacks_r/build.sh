# build.sh FIXTURE_DIR INBOX: one notebook per fixture, <inbox>/<fixture name>/a1_attention.ipynb
set -e
for f in "$1"/*.py; do
  n=$(basename "$f" .py); id=$(echo "$n" | tr -c 'A-Za-z0-9_\n' '_')
  python "$(dirname "$0")/../attacks_q/mksub.py" "$f" "$2/$id" >/dev/null
  /work/main/.venv/bin/python /tmp/ar/post.py "$n" "$2/$id/a1_attention.ipynb"
done
