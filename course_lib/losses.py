"""What every family's losses share: the label of a position no loss counts.

``IGNORE_INDEX`` (-100, ``F.cross_entropy``'s default ``ignore_index`` and Hugging Face's): BERT's
unmasked positions (:mod:`course_lib.bert`), a sequence-to-sequence target's padding
(:mod:`course_lib.seq2seq`), a fine-tuning prompt's tokens (:mod:`course_lib.finetune`). The models
import it from here, not from the training loop (:mod:`course_lib.train`), which trains them all.
"""

from __future__ import annotations

__all__ = ["IGNORE_INDEX"]

# the label of a position no loss counts (F.cross_entropy's ignore_index); every family's labels use it
IGNORE_INDEX = -100
