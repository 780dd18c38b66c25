# expect: 12/12 (the answer key, graded right after an attack in the same batch)
