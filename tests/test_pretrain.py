"""python -m course_lib.pretrain, in one process: text tokenized once (characters or GPT-2's BPE) into
uint16 files, a nanoGPT-style token file read in place, a model that learns, is saved whole and loads,
and a run that resumes from its checkpoint."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch

from course_lib.gpt import GPT, GPTConfig
from course_lib.pretrain import main
from course_lib.tokenization import ByteBPETokenizer

TINY = [
    "--n-layers",
    "1",
    "--n-heads",
    "2",
    "--d-model",
    "32",
    "--block-size",
    "32",
    "--batch-size",
    "8",
    "--warmup",
    "2",
    "--eval-batches",
    "2",
    "--device",
    "cpu",
]
TEXT = "to be, or not to be, that is the question:\nwhether 'tis nobler in the mind to suffer\n" * 40


def load_model(out: Path) -> GPT:
    saved = torch.load(out / "model.pt", weights_only=True)
    model = GPT(GPTConfig(**saved["config"]))
    model.load_state_dict(saved["state_dict"])
    return model


def pretrain(source: list[str], out: Path, *options: str, steps: int = 2, eval_every: int = 2) -> None:
    """python -m course_lib.pretrain on ``source`` (``--text`` files or ``--tokens`` with its file) with TINY's model,
    ``steps`` steps evaluated every ``eval_every``, and ``options`` (after TINY's: a later one wins), into ``out``."""
    main([*source, *TINY, "--steps", str(steps), "--eval-every", str(eval_every), *options, "--out", str(out)])


def test_characters_learn_save_and_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "corpus.txt").write_text(TEXT)
    out = tmp_path / "run"
    char_text = ["--text", str(tmp_path / "corpus.txt"), "--tokenizer", "char"]
    pretrain(char_text, out, "--lr", "1e-2", "--checkpoint-every", "20", steps=40, eval_every=20)
    printed = capsys.readouterr().out
    train_ids, val_ids = np.fromfile(out / "train.bin", dtype=np.uint16), np.fromfile(out / "val.bin", dtype=np.uint16)
    assert len(train_ids) + len(val_ids) == len(TEXT) and len(val_ids) == len(TEXT) - int(len(TEXT) * 0.9)
    vocab = len(set(TEXT))
    assert json.loads((out / "vocab.json").read_text())["vocab_size"] == vocab
    model = load_model(out)
    assert model.config.vocab_size == vocab and model.config.n_layers == 1
    final = float(printed.split("final validation loss ")[1].split(";")[0])
    assert final < 0.5 * math.log(vocab), "a repeated text is learned in 40 steps"
    assert "throughput:" in printed and "tokens/s" in printed
    # resume: 20 more steps from the checkpoint of step 40, the data files reused
    pretrain(char_text, out, "--lr", "1e-2", "--checkpoint-every", "20", "--resume", steps=60, eval_every=20)
    saved = torch.load(out / "checkpoint.pt", weights_only=True)
    assert saved["step"] == 60 and saved["history"]["step"] == list(range(60))


def test_text_is_tokenized_with_gpt2_bpe(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(TEXT[:400])
    (tmp_path / "b.txt").write_text("<|endoftext|> is text here")
    small_windows = ["--val-fraction", "0.2", "--block-size", "16"]
    pretrain(["--text", str(tmp_path / "a.txt"), str(tmp_path / "b.txt")], tmp_path / "run", *small_windows)
    ids = ByteBPETokenizer.gpt2().encode(TEXT[:400] + "\n<|endoftext|> is text here", allowed_special=set())
    stored = np.concatenate(
        [np.fromfile(tmp_path / "run" / name, dtype=np.uint16) for name in ("train.bin", "val.bin")]
    )
    assert stored.tolist() == ids, "the files joined, newline-separated; a special token in the text is ordinary text"
    assert load_model(tmp_path / "run").config.vocab_size == 50257
    # the same folder, other texts or another tokenizer: tokenized again, never the old files reused
    pretrain(["--text", str(tmp_path / "a.txt"), "--tokenizer", "char"], tmp_path / "run", *small_windows)
    assert load_model(tmp_path / "run").config.vocab_size == len(set(TEXT[:400]))


def test_too_little_data_for_a_window_is_refused_by_name(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(TEXT[:400])
    with pytest.raises(
        ValueError, match=r"the validation split has \d+ tokens, too few for one window of block_size \+ 1 = 33"
    ):
        main(["--text", str(tmp_path / "a.txt"), *TINY, "--steps", "2", "--out", str(tmp_path / "run")])


def test_a_token_file_is_read_in_place(tmp_path: Path) -> None:
    ids = np.random.default_rng(0).integers(0, 50257, 3000).astype(np.uint16)
    ids.tofile(tmp_path / "train.bin")
    pretrain(["--tokens", str(tmp_path / "train.bin")], tmp_path / "run")
    assert load_model(tmp_path / "run").config.vocab_size == 50257
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == ["checkpoint.pt", "model.pt"], "nothing copied"
