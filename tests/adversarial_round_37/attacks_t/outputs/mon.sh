#!/bin/bash
# sample the RSS (MB) of the worker, the student processes and `course` every 0.2 s; print the peaks at the end
peak_w=0; peak_s=0; peak_c=0
while kill -0 $1 2>/dev/null; do
  for p in $(pgrep -f "course_grading.sandbox.worker"); do r=$(awk '/VmRSS/{print int($2/1024)}' /proc/$p/status 2>/dev/null); [ -n "$r" ] && [ $r -gt $peak_w ] && peak_w=$r; done
  for p in $(pgrep -f "course_grading.sandbox.student_server"); do r=$(awk '/VmRSS/{print int($2/1024)}' /proc/$p/status 2>/dev/null); [ -n "$r" ] && [ $r -gt $peak_s ] && peak_s=$r; done
  for p in $(pgrep -f "bin/course --course"); do r=$(awk '/VmRSS/{print int($2/1024)}' /proc/$p/status 2>/dev/null); [ -n "$r" ] && [ $r -gt $peak_c ] && peak_c=$r; done
  sleep 0.2
done
echo "peak RSS MB: worker $peak_w, student processes $peak_s, course $peak_c"
