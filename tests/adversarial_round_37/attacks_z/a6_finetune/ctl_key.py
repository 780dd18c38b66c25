# expect: 10/10 (the answer key, control)
