"""Every text that reaches a report goes through this module: the one way to make it safe to show.

Names, emails and file names from a roster or an LMS export, notes that quote a student's source
line, messages of a student's exceptions: any of them may hold characters that do something where
they are shown instead of being seen. A terminal obeys ESC (colours, a moved cursor, a retitled
window, a rewritten line), BEL rings, CR returns to the start of the line and overwrites it; Unicode's
bidirectional overrides and isolates reorder the text around them (``s001\\u202e...`` reads backwards),
zero-width characters make two different texts look alike, and U+2028/U+2029 start a new line in
some viewers. A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula
(CSV injection: ``=HYPERLINK(...)``, or ``=cmd|...`` through DDE).

* :func:`shown` writes each such character as a visible escape (``\\x1b``, ``\\u202e``), in the
  style of Python's string literals; with ``lines=True`` newlines and tabs are kept (a multi-line
  message for the terminal or a page), otherwise they are escaped too (one line of a summary,
  one field of a row). Backslashes are left as they are: the output is meant to be read, not parsed
  back, and it holds none of these characters (so :func:`shown` of it changes nothing).
* :func:`csv_cell` is one field of a CSV row: :func:`shown`, and text that a spreadsheet would read as
  a formula (its first character after any leading spaces ``=``, ``+``, ``-``, ``@``, a tab or a CR)
  prefixed with an apostrophe (OWASP's advice), so that it is shown as text. Numbers are written as
  numbers (a score of -1.5 stays ``-1.5``).
* :func:`continued` puts the lines after the first of a message (a student's exception can hold newlines) behind
  a gutter, ``| ``, so that none of them reads as a line of the report around it (attacks_n forged
  ``  masks   2/2`` and ``total 12/12`` under its own error).
* :func:`source_lines` splits source code into lines as Python numbers them (at ``\n``, ``\r\n`` and ``\r`` only;
  ``str.splitlines`` also splits at U+2028, a form feed and others, so that a quoted "line 4" would be another
  line than the one Python ran: attacks_n put harmless code there, after a U+2028 in a comment).
* :func:`html_text` is :func:`shown` (lines kept) and then HTML-escaped, for pages written by hand
  (nbgrader's feedback pages are rendered and escaped by nbconvert's templates and filters).

What is escaped (:data:`HIDDEN`): the C0 controls (U+0000-U+001F, newline and tab kept with
``lines=True``), DEL and the C1 controls (U+007F-U+009F), every format character (Unicode category
Cf: the soft hyphen, the bidi marks, embeddings, overrides and isolates U+200E-U+200F,
U+202A-U+202E, U+2066-U+2069, the zero-width space, non-joiner and joiner, the word joiner, the
byte-order mark, the tag characters), the line and paragraph separators (U+2028, U+2029) and lone
surrogates (U+D800-U+DFFF, which a file name read with ``surrogateescape`` holds and UTF-8 cannot
encode). The zero-width joiner and non-joiner are escaped too, though Persian, Indic scripts and
emoji use them: a report is read for what it says, and an invisible character there can make two
names look alike. This module imports nothing of ``course_grading``: everything may import it.
"""

from __future__ import annotations

import html
import math
import re

__all__ = ["FORMULA_STARTS", "HIDDEN", "csv_cell", "continued", "html_text", "shown", "source_lines"]

# The code points shown as escapes: categories Cc, Cf, Zl, Zp and Cs of Unicode 14 and 15 (Python 3.11's and
# 3.12's unicodedata; tests/test_text.py checks the running Python's database against it).
_CONTROLS = r"\x00-\x1f\x7f-\x9f"  # C0 controls, DEL, C1 controls (NEL U+0085 among them)
_CONTROLS_IN_LINES = r"\x00-\x08\x0b-\x1f\x7f-\x9f"  # the same but tab (U+0009) and newline (U+000A)
_FORMAT = (
    r"\u00ad"  # soft hyphen
    r"\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2"  # Arabic and Syriac format characters, the Arabic letter mark
    r"\u180e"  # Mongolian vowel separator
    r"\u200b-\u200f"  # zero-width space, non-joiner, joiner; left-to-right and right-to-left marks
    r"\u2028-\u202e"  # line and paragraph separators; bidi embeddings, pop and overrides
    r"\u2060-\u2064\u2066-\u206f"  # word joiner, invisible operators; bidi isolates; deprecated format characters
    r"\ud800-\udfff"  # lone surrogates
    r"\ufeff\ufff9-\ufffb"  # byte-order mark (zero-width no-break space); interlinear annotation
    r"\U000110bd\U000110cd\U00013430-\U0001343f"  # Kaithi number signs, Egyptian hieroglyph format controls (15.0)
    r"\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"  # shorthand format controls, musical symbol format characters
    r"\U000e0001\U000e0020-\U000e007f"  # language tag and tag characters (invisible text)
)
HIDDEN = re.compile(f"[{_CONTROLS}{_FORMAT}]")
_HIDDEN_IN_LINES = re.compile(f"[{_CONTROLS_IN_LINES}{_FORMAT}]")
_SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# What a spreadsheet starts a formula with, and their full-width forms, which some spreadsheets read alike.
FORMULA_STARTS = ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def _escape(match: re.Match[str]) -> str:
    """One hidden character as a Python string literal writes it: ``\\n``, ``\\x1b``, ``\\u202e``, ``\\U000e0041``."""
    char = match.group()
    code = ord(char)
    if char in _SHORT:
        return _SHORT[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def shown(text: str, *, lines: bool = False) -> str:
    """``text`` with every control, format, separator and lone surrogate character (:data:`HIDDEN`)
    written as a visible escape (``\\x1b``, ``\\u202e``). With ``lines``, newlines and tabs are kept:
    for a message of several lines; otherwise the result is one line (a field, a line of a summary)."""
    return (_HIDDEN_IN_LINES if lines else HIDDEN).sub(_escape, text)


def csv_cell(value: str | int | float | None) -> str:
    """One field of a CSV row: None is empty; a number (not a bool) is written as a number, an
    integral float without its ``.0`` (round it first for fewer decimals); text is :func:`shown` on
    one line, with an apostrophe before it when its first character after any leading whitespace is
    one a spreadsheet starts a formula with (:data:`FORMULA_STARTS`, a tab, a CR), so that it stays text."""
    if value is None:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if isinstance(value, float) and math.isfinite(value) and value.is_integer():
            return str(int(value))
        return repr(value) if isinstance(value, float) else str(value)
    text = str(value)
    cell = shown(text)
    # A leading tab or CR is escaped by shown(); the cell is marked all the same.
    formula = cell.lstrip().startswith(FORMULA_STARTS) or text.lstrip(" ").startswith(("\t", "\r"))
    return "'" + cell if formula else cell


def html_text(text: str) -> str:
    """``text`` for a hand-written HTML page: :func:`shown` (newlines and tabs kept), then HTML-escaped (quotes too)."""
    return html.escape(shown(text, lines=True), quote=True)


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def source_lines(source: str) -> list[str]:
    """``source``'s lines as Python's tokenizer counts them (``lines[n - 1]`` is what a traceback calls line
    ``n``): split at ``\n``, ``\r\n`` and ``\r`` only, never at the other characters ``str.splitlines``
    takes (U+2028, U+2029, ``\x0b``, ``\x0c``, ``\x1c``-``\x1e``, ``\x85``); no empty last line after a final break."""
    lines = _LINE_BREAK.split(source)
    return lines[:-1] if lines and lines[-1] == "" else lines


def continued(text: str, indent: int) -> str:
    """``text`` with each line after its first indented by ``indent`` spaces and a gutter (``| ``): a message
    shown under a line of a report cannot add a line that looks like one of the report's own."""
    first, *rest = text.split("\n")
    return "\n".join([first, *(" " * indent + "| " + line for line in rest)])
