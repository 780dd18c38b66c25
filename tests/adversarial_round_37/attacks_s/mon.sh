#!/bin/bash
# mon.sh OUTFILE: sample RSS (MB) of every process whose cmdline mentions course_grading or course, keep max per pid+cmd
out=$1; : > $out.raw
while true; do ps -eo pid,uid,rss,args --no-headers | grep -E 'course|student_server|worker' | grep -v -E 'grep|mon.sh' >> $out.raw; sleep 0.5; done
