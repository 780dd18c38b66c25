# expect: 12/12 -- the answer key unchanged (the victim / baseline)
