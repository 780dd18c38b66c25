# expect: 10/10 (control: every answer cell is the key's)
