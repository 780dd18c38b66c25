# expect: 11/11 (the answer key, control)
