"""The models a chapter saves for a later one: where they go, and that a model made by other code is refused."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import torch

from course_lib import chapter_models
from course_lib.chapter_models import (
    OutdatedModelError,
    chapter_model,
    code_fingerprint,
    is_current,
    load_chapter_model,
    save_chapter_model,
)

MODEL = {"config": {"d_model": 4}, "state_dict": {"w": torch.arange(3.0)}, "chars": "ab"}


@pytest.fixture
def models(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COURSE_MODELS", str(tmp_path / "models"))
    return tmp_path / "models"


def test_a_chapter_model_is_saved_where_the_environment_or_course_models_says(models: Path) -> None:
    assert chapter_model("04_bert") == models / "04_bert.pt" and models.is_dir()


def test_a_model_comes_back_as_saved_without_its_fingerprint(models: Path) -> None:
    assert save_chapter_model("03_gpt", MODEL) == models / "03_gpt.pt" and is_current("03_gpt")
    loaded = load_chapter_model("03_gpt", made_by="chapter 3 (03_gpt.ipynb)")
    assert loaded.keys() == MODEL.keys() and loaded["state_dict"]["w"].equal(MODEL["state_dict"]["w"])
    with pytest.raises(ValueError, match="made_with"):
        save_chapter_model("03_gpt", {**MODEL, "made_with": "mine"})


def test_a_chapter_model_not_made_yet_names_the_chapter_to_run(models: Path) -> None:
    """Chapter 6 opened on its own (Colab, a fresh environment): the models chapters 3 and 4 save are not there, and
    the error says which chapter to run first, not only a path."""
    with pytest.raises(FileNotFoundError, match=r"03_gpt\.pt is missing: it is the model chapter 3 \(03_gpt\.ipynb\)"):
        load_chapter_model("03_gpt", made_by="chapter 3 (03_gpt.ipynb)")
    assert not is_current("03_gpt")


@pytest.mark.parametrize("saved", ["other code", "no fingerprint", "not a dictionary"])
def test_a_model_made_by_other_code_is_refused_naming_the_chapter_to_run_again(models: Path, saved: str) -> None:
    """A model an older chapter 4 trained once failed a claim of chapter 6 that the current chapter 4's model meets:
    a model whose fingerprint is not this code's (an older course, or one from before fingerprints) is refused."""
    models.mkdir()
    payload = {
        "other code": {**MODEL, "made_with": "0" * 64},
        "no fingerprint": MODEL,
        "not a dictionary": [1, 2],
    }[saved]
    torch.save(payload, models / "04_bert.pt")
    assert not is_current("04_bert")
    with pytest.raises(OutdatedModelError, match=r"other code .* Run chapter 4 \(04_bert\.ipynb\) again"):
        load_chapter_model("04_bert", made_by="chapter 4 (04_bert.ipynb)")


def test_the_fingerprint_follows_the_library_and_the_chapters_page_but_not_the_figures(tmp_path: Path) -> None:
    library, book = tmp_path / "course_lib", tmp_path / "book"
    shutil.copytree(chapter_models.LIBRARY, library, ignore=shutil.ignore_patterns("__pycache__"))
    book.mkdir()
    (book / "04_bert.md").write_text("# Chapter 4\n")

    def fingerprint() -> str:
        chapter_models._fingerprint.cache_clear()
        return code_fingerprint("04_bert", library, book)

    first = fingerprint()
    assert first == fingerprint() and first != code_fingerprint("03_gpt", library, book)  # 03_gpt.md is missing
    figure = next((library / "diagrams").glob("*.py"))
    figure.write_text(figure.read_text() + "\n# a figure's change\n")
    assert fingerprint() == first
    (book / "04_bert.md").write_text("# Chapter 4, trained for longer\n")
    second = fingerprint()
    assert second != first
    (library / "bert.py").write_text((library / "bert.py").read_text() + "\n# a change to the model's code\n")
    assert fingerprint() not in (first, second)
