# expect: 12/12 (control: every answer cell is the key's)
