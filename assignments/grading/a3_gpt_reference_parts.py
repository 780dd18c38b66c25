"""The notebook's given helper for a3 (instructor-only). Swapped into the student's notebook while
part 5 is graded, so that an edited ``toy_lm`` changes nothing. Read as source by the checks and
run by the grader; the student's process only gets stand-ins that call it."""

import torch


def toy_lm(idx, W, U):
    prefix = idx.cumsum(dim=1) % W.shape[0]
    return W[idx] + U[prefix]
