"""course_lib: the library that every chapter of *Pretraining Transformers* is built on.

One module per chapter, layered so that each imports only from the layers above it: ``attention`` (chapter 1),
``blocks`` (chapter 2), then the model families: ``gpt`` (chapter 3), ``bert`` (chapter 4), ``t5`` and
``bart`` (chapter 5), ``llama`` (today's decoder: rotary positions, RMSNorm, SwiGLU, grouped-query attention),
``families`` (the protocol every family keeps: ``input_ids``/``attention_mask``, ``hidden_states``,
``from_hf``/``to_hf``/``from_pretrained``; and the registry of families), with ``seq2seq`` (what
encoder-decoder models share: the interface, teacher forcing, the loss), ``generation`` (greedy, sampled and
beam-search decoding with caches for every family, as Hugging Face's ``generate``), and ``finetune`` (chapter
6: heads, freezing, probes, LoRA and adapters on any family); ``pretrain`` (the appendix:
``python -m course_lib.pretrain`` on one process or under torchrun) sits on ``gpt``. Beside them, importing no
model: ``tokenization`` (characters, byte-level BPE, ByT5's bytes; BERT's WordPiece builds on it in
``wordpiece``), ``unigram`` (the Unigram tokenizer's Viterbi cut and sampled cuts, chapter 3b), ``data``
(corpora that ship in packages, language-model batches), ``train`` (the one training loop, on one process or
many through ``distributed``) and ``convert`` (the checks every family's conversion from Hugging Face state
dicts shares), ``seeding`` (every chapter's seeds, shifted by ``COURSE_SEED_OFFSET``), ``threads`` (one thread
per free core), ``uncertainty`` (bootstrap intervals of accuracies over seeds and test examples), ``plotting``
(figures the book uses more than once) and ``diagrams`` (the schematic figures of every chapter, drawn from
the modules they show). The library never imports the book or the grading code.
"""

__all__ = ["__version__"]

__version__ = "0.1.0"
