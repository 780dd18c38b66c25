"""Schematic figures drawn by code: the shapes through multi-head attention, the three block
arrangements, the GPT stack and the KV cache.

Each function returns a :class:`~matplotlib.figure.Figure` whose axes are laid out in inches (one
data unit is one inch of the figure), so the boxes, arrows and labels keep their sizes and spacing
whatever the arguments. Labels use the library's own names (``q_proj``, ``split_heads``, ``norm1``,
``wte``, ...) in a monospaced font, and the book's shape symbols (``(B, h, T, d_head)``).

Patches carry a ``gid`` naming what they stand for (``"head-slice"``, ``"cache-new"``, ...), which
is how the tests count them.

One module per chapter's figures (``shapes``, ``arrangements``, ``gpt``, ...), all drawn with the kit
in ``_kit``; every figure function is importable from here.
"""

from .arrangements import STREAM_X, block_arrangements
from .gpt import gpt_stack, kv_cache_steps
from .shapes import multi_head_shapes

__all__ = ["STREAM_X", "block_arrangements", "gpt_stack", "kv_cache_steps", "multi_head_shapes"]
