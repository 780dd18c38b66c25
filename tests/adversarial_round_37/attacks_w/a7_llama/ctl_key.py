# expect: 14/14 (the answer key, control)
