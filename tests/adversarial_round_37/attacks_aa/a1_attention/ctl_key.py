# expect: 12/12 (the answer key, control)
