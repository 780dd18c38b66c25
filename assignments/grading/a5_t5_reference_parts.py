"""The notebook's given helper for a5 (instructor-only). Swapped into the student's notebook while
each part's visible tests run, so that an edited ``cross_attention_weights`` changes nothing. Read
as source by the checks and run by the grader; the student's process only gets stand-ins that call it."""

import math

import torch


def cross_attention_weights(d_model, d_kv, n_heads, seed=0):
    g = torch.Generator().manual_seed(seed)
    inner = n_heads * d_kv
    p = {name: torch.randn(d_model, inner, generator=g) / math.sqrt(d_model) for name in ("W_q", "W_k", "W_v")}
    p["W_o"] = torch.randn(inner, d_model, generator=g) / math.sqrt(inner)
    return p
