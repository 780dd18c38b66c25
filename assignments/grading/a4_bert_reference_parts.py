"""The notebook's given helper for a4 (instructor-only). Swapped into the student's notebook while
each part's visible tests run, so that an edited ``block_weights`` changes nothing. Read as source
by the checks and run by the grader; the student's process only gets stand-ins that call it."""

import math

import torch


def block_weights(d, d_ff, seed=0):
    g = torch.Generator().manual_seed(seed)
    p = {name: torch.randn(d, d, generator=g) / math.sqrt(d) for name in ("W_q", "W_k", "W_v", "W_o")}
    p |= {
        name: 0.1 * torch.randn(d, generator=g) for name in ("b_q", "b_k", "b_v", "b_o", "ln1_bias", "ln2_bias", "b_2")
    }
    p |= {"ln1_gain": 1 + 0.1 * torch.randn(d, generator=g), "ln2_gain": 1 + 0.1 * torch.randn(d, generator=g)}
    p |= {"W_1": torch.randn(d, d_ff, generator=g) / math.sqrt(d), "b_1": 0.1 * torch.randn(d_ff, generator=g)}
    p |= {"W_2": torch.randn(d_ff, d, generator=g) / math.sqrt(d_ff)}
    return p
