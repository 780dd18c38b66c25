# control: the answer key, 12/12
