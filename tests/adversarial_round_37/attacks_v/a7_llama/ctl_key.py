# expect: 14/14 (control: every answer cell is the key's)
