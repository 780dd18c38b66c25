# expect: full marks -- the answer key unchanged (baseline)
