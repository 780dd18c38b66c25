# expect: the attacker scores 0 (it runs past the submission's limit); the right notebook graded after it in the same job slot (vic03_slow_right.py, 18 s of top-level demo within a 30 s limit) must get 12/12 as it does when graded after a normal submission
# %% [new after imports]
import time
time.sleep(19)
# %% [new after sdpa]
time.sleep(19)
# %% [new after masks]
time.sleep(19)
