"""The notebook's given helper for a6 (instructor-only). Swapped into the student's notebook while
each part's visible tests run, so that an edited ``toy_features`` changes nothing. Read as source by
the checks and run by the grader; the student's process only gets stand-ins that call it. (The
setup cell's ``TinyClassifier`` is a class of modules, which cannot cross to the grader: the visible
tests use it as the setup cell defines it, and no hidden check does.)"""

import torch


def toy_features(n, d, n_classes, seed=0):
    g = torch.Generator().manual_seed(seed)
    centres = 2 * torch.randn(n_classes, d, generator=g)
    labels = torch.randint(0, n_classes, (n,), generator=g)
    return centres[labels] + torch.randn(n, d, generator=g), labels
