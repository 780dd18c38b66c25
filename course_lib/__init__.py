"""course_lib: the library that every chapter of *Pretraining Transformers* is built on.

One module per chapter, layered so that each imports only from the layers above it:
``attention`` (chapter 1), then the blocks and the model families of later chapters. Beside them,
``plotting`` draws the figures the book uses more than once. The library never imports the book or
the grading code.
"""

__version__ = "0.1.0"
