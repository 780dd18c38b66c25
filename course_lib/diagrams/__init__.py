"""Schematic figures drawn by code: the shapes through multi-head attention, the three block
arrangements, the GPT stack and the KV cache (chapters 1-3); BERT's input representation and its
masked-LM loss (chapter 4); T5's data flow and the decoder's two caches (chapter 5); LoRA and adapters
as fine-tuning wraps a model (chapter 6); a GPT-2 block beside a Llama block (chapter 7);
DDP against FSDP and the memory each rank holds (appendix).
The figures from chapter 4 on are drawn from the objects they are given: the names they print are the
submodules a run of the model calls, so a renamed layer renames it in the figure.

Each function returns a :class:`~matplotlib.figure.Figure` whose axes are laid out in inches (one
data unit is one inch of the figure), so the boxes, arrows and labels keep their sizes and spacing
whatever the arguments. Labels use the library's own names (``q_proj``, ``split_heads``, ``norm1``,
``wte``, ...) in a monospaced font, and the book's shape symbols (``(B, h, T, d_head)``).

Patches carry a ``gid`` naming what they stand for (``"head-slice"``, ``"cache-new"``, ...), which
is how the tests count them.

One module per chapter's figures (``shapes``, ``arrangements``, ``gpt``, ``bert``, ``seq2seq``,
``finetune``, ``llama``, ``scaling``), all drawn with the kit
in ``_kit``; every figure function is importable from here.
"""

from .arrangements import STREAM_X, block_arrangements
from .bert import bert_embeddings, bert_masking
from .finetune import adapter_block, lora_linear
from .gpt import gpt_stack, kv_cache_steps
from .llama import decoder_blocks
from .scaling import ddp_fsdp, fsdp_units, memory_per_rank, rank_memory
from .seq2seq import decoder_caches, t5_data_flow
from .shapes import multi_head_shapes

__all__ = [
    "STREAM_X",
    "adapter_block",
    "bert_embeddings",
    "bert_masking",
    "block_arrangements",
    "ddp_fsdp",
    "decoder_blocks",
    "decoder_caches",
    "fsdp_units",
    "gpt_stack",
    "kv_cache_steps",
    "lora_linear",
    "memory_per_rank",
    "multi_head_shapes",
    "rank_memory",
    "t5_data_flow",
]
