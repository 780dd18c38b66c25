import sys, time
sys.path.insert(0, "/work/main")
from course_grading.markers import json_values_problem
for n in (10_000, 20_000, 40_000, 80_000):
    data = b'{"cells": [], "x": "' + b'\\"' * n      # an unterminated string of escaped quotes
    t = time.time(); r = json_values_problem(data); print(len(data), "bytes", round(time.time() - t, 2), "s", r)
