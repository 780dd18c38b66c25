"""Oracles of the hidden checks that stand in for a library the grader does not import, checked
against that library.

a4's pair check builds ``[CLS] A [SEP] B [SEP]`` with Hugging Face's Rust ``tokenizers`` and
truncates with BERT's rule written out, instead of calling ``BertTokenizerLegacy`` (the port of
BERT's own code), whose ``import transformers`` would cost every graded notebook more than a second;
its WordPiece check uses the Rust ``WordPiece`` model, which ``BertTokenizer`` runs on. Here both are
compared with the legacy tokenizer, on every small pair of lengths and on many random words.

The oracles run in the grader's own process under ``course grade``; in one interpreter with the
student's code (plain nbgrader's kernel) they can be bent. The last test checks that the hostile
corpus's a4 submission really does bend all of them there, so that ``course grade`` refusing it
(tests/test_course_grade.py) shows something.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from assignment_support import GRADING, ROOT

if str(GRADING) not in sys.path:
    sys.path.insert(0, str(GRADING))
import a4_bert_checks as a4  # noqa: E402

legacy = pytest.importorskip("transformers.models.bert.tokenization_bert_legacy")


def test_a4_pair_oracle_is_what_bert_tokenizer_legacy_gives(tmp_path: Path) -> None:
    import transformers

    transformers.logging.set_verbosity_error()  # the legacy tokenizer warns on every truncated pair
    (tmp_path / "vocab.txt").write_text("\n".join(a4.SPECIAL_TOKENS) + "\n")
    tokenizer = legacy.BertTokenizerLegacy(vocab_file=str(tmp_path / "vocab.txt"))
    assert (tokenizer.pad_token_id, tokenizer.cls_token_id, tokenizer.sep_token_id) == (a4.PAD_ID, a4.CLS_ID, a4.SEP_ID)
    for n_a, n_b, max_len in itertools.product(range(10), range(10), range(3, 22)):
        a, b = list(range(10, 10 + n_a)), list(range(500, 500 + n_b))
        hf = tokenizer.prepare_for_model(a, b, add_special_tokens=True, truncation="longest_first", max_length=max_len, padding="max_length", return_token_type_ids=True, return_attention_mask=True)
        ours = [t.tolist() for t in a4._ref_pair(a, b, max_len)]
        assert ours == [hf["input_ids"], hf["token_type_ids"], hf["attention_mask"]], (n_a, n_b, max_len)


def test_a4_wordpiece_oracle_is_what_bert_wordpiece_legacy_gives() -> None:
    g = torch.Generator().manual_seed(0)
    for letters, unk, max_chars in [("abcd", "[UNK]", 100), ("xyé", "<unk>", 100), ("abc", "[UNK]", 6)]:
        for _ in range(5):
            vocab = a4._random_vocab(g, letters, unk)
            ours = a4._hf_wordpiece(vocab, unk, max_chars)
            theirs = legacy.WordpieceTokenizer(vocab=vocab, unk_token=unk, max_input_chars_per_word=max_chars)
            words = a4._random_words(g, letters, 300, 12) + [letters[0] * max_chars, letters[0] * (max_chars + 1)]
            assert [ours(w) for w in words] == [theirs.tokenize(w) for w in words]


BENT = """
import json, sys
sys.path.insert(0, "tests")
from assignment_support import GRADING, Fixture, submission_notebook
from course_grading.harness import run_tests
from hostile_submissions import a4_bending_answers
nb = submission_notebook("a4_bert", Fixture("bends", a4_bending_answers(), frozenset()))
print(json.dumps(run_tests(nb, GRADING)))
"""


def test_a4_hostile_submission_bends_every_oracle_in_one_interpreter() -> None:
    """Run apart (its patches of torch and tokenizers would outlive it here): in one interpreter,
    as in plain nbgrader, every part of the wrong submission passes."""
    result = subprocess.run([sys.executable, "-c", BENT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == dict.fromkeys(["wordpiece", "mask_tokens", "mlm_loss", "encoder_block", "pair_inputs"])
