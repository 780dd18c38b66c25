# victim: the answer key, graded right after atk03 in the same container batch. A correct grader: 12/12.
