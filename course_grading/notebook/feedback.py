"""Feedback that reveals no hidden test, and reads offline.

:class:`ScrubHiddenTracebacks` keeps hidden tests out of the page. :class:`MathToMathML` writes the
formulas of the notebook's text as MathML, and ``templates/feedback/course_feedback.html.j2`` is nbgrader's feedback
page without what it loads or inlines from elsewhere (MathJax from a CDN, 117 KB of Bootstrap):
the page is one small file that shows its formulas with no network."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import nbgrader
from nbconvert.preprocessors import Preprocessor
from nbformat import NotebookNode
from traitlets import Bool

from course_grading.markers import BEGIN_HIDDEN

__all__ = ["FEEDBACK_TEMPLATE", "MATH", "MathToMathML", "ScrubHiddenTracebacks", "TeX", "markdown_with_mathml"]

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class ScrubHiddenTracebacks(Preprocessor):
    """Cut tracebacks in cells with hidden tests down to their last line, ``Error: message``.

    nbgrader's ``ClearHiddenTests`` removes the hidden lines from a cell's source, but the error's
    traceback, stored in the cell's output, still quotes the lines around the failure. The message
    itself is kept: hidden checks write messages meant for students. Must run before
    ``ClearHiddenTests``, which removes the marker this looks for.
    """

    enabled = Bool(True).tag(config=True)  # nbconvert's default is off for registered preprocessors

    def preprocess_cell(self, cell: NotebookNode, resources: dict, index: int) -> tuple[NotebookNode, dict]:
        if cell.cell_type == "code" and BEGIN_HIDDEN in cell.source:
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    output["traceback"] = [_ANSI.sub("", f"{output.get('ename', 'Error')}: {output.get('evalue', '')}")]
        return cell, resources


# ------------------------------------------------------------------------- math without MathJax

# The feedback page's template, as nbconvert's HTMLExporter is configured with it (name, file, folders):
# templates/feedback/course_feedback.html.j2 extends nbgrader's own feedback/index.html.j2, found in the
# second folder. The name must be "feedback": nbgrader's API sets it whatever the configuration says.
FEEDBACK_TEMPLATE = (
    "feedback",
    "course_feedback.html.j2",
    [
        str(Path(__file__).resolve().parents[1] / "templates"),
        str(Path(nbgrader.__file__).resolve().parent / "server_extensions" / "formgrader" / "templates"),
    ],
)

GREEK = (
    "alpha beta gamma delta zeta eta theta iota kappa lambda mu nu xi pi rho sigma tau upsilon chi psi omega "
    "Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega"
)
SYMBOLS = {
    **{name: unicodedata.lookup(f"GREEK {'CAPITAL' if name[0].isupper() else 'SMALL'} LETTER "
                                f"{name.upper().replace('LAMBDA', 'LAMDA')}") for name in GREEK.split()},
    "epsilon": "ϵ", "varepsilon": "ε", "phi": "ϕ", "varphi": "φ",
    "top": "⊤", "times": "×", "cdot": "⋅", "odot": "⊙", "otimes": "⊗", "oplus": "⊕", "in": "∈", "notin": "∉",
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥",
    "neq": "≠", "ne": "≠", "approx": "≈", "sim": "∼", "pm": "±", "mp": "∓", "to": "→", "rightarrow": "→",
    "leftarrow": "←", "gets": "←", "mapsto": "↦",
    "infty": "∞", "partial": "∂", "nabla": "∇", "sum": "∑", "prod": "∏", "int": "∫", "dots": "…", "ldots": "…",
    "cdots": "⋯", "lfloor": "⌊", "rfloor": "⌋",
    "lceil": "⌈", "rceil": "⌉", "langle": "⟨", "rangle": "⟩", "{": "{", "}": "}", "|": "‖", "mid": "∣",
    "forall": "∀", "exists": "∃", "cup": "∪", "cap": "∩",
    "subset": "⊂", "subseteq": "⊆", "emptyset": "∅", "ell": "ℓ", "propto": "∝", "circ": "∘", "ast": "∗", "star": "⋆",
    "prime": "′", "neg": "¬", "lvert": "|", "rvert": "|",
}  # fmt: skip
FUNCTIONS = {
    "log",
    "ln",
    "exp",
    "sin",
    "cos",
    "tan",
    "tanh",
    "max",
    "min",
    "arg",
    "argmax",
    "argmin",
    "softmax",
    "det",
    "dim",
    "lim",
    "sup",
    "inf",
}
SPACES = {",": "0.17em", ":": "0.22em", ";": "0.28em", " ": "0.25em", "quad": "1em", "qquad": "2em", "!": "0em"}
TEXT = {"text", "textrm", "textbf", "textit", "mbox"}
VARIANTS = {
    "mathrm": "normal",
    "operatorname": "normal",
    "mathit": "italic",
    "mathbf": "bold",
    "boldsymbol": "bold-italic",
    "mathsf": "sans-serif",
    "mathtt": "monospace",
}
LETTER_FONTS = {  # browsers draw only mathvariant="normal": these fonts are Unicode letters instead
    "mathbb": (0x1D538, {"C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ"}),
    "mathcal": (
        0x1D49C,
        {"B": "ℬ", "E": "ℰ", "F": "ℱ", "H": "ℋ", "I": "ℐ", "L": "ℒ", "M": "ℳ", "R": "ℛ"},
    ),
}
SIZING = {"left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr", "middle"}
TOKEN = re.compile(r"\\[A-Za-z]+|\\.|\d+(?:\.\d+)?|\s+|.", re.DOTALL)
# as entities: Markdown must not read them as markup
MARKDOWN_SPECIAL = str.maketrans({c: f"&#{ord(c)};" for c in "*_`[]\\$~|#<>&"})
MATH = re.compile(
    r"(?P<code>```.*?```|`[^`\n]*`)|\$\$(?P<display>.+?)\$\$|(?<![\\$])\$(?P<inline>[^$\n]+?)\$", re.DOTALL
)


class TeX:
    """A small TeX-to-MathML translator for the math in the assignments' text: symbols, Greek,
    sub- and superscripts, ``\\frac``, ``\\sqrt``, ``\\text`` and font commands, sized delimiters and
    spaces. Browsers draw MathML without a script or network, so a feedback page shows its formulas
    offline. A command it does not know is shown as its TeX text."""

    def __init__(self, source: str) -> None:
        self.tokens = TOKEN.findall(source)
        self.position = 0

    @classmethod
    def mathml(cls, source: str, display: bool) -> str:
        """``source`` (TeX math) as one line of MathML, safe inside a Markdown cell."""
        block = ' display="block"' if display else ""
        return (
            f'<math xmlns="http://www.w3.org/1998/Math/MathML"{block}><mrow>{cls(source).row(stop=None)}</mrow></math>'
        )

    def peek(self) -> str | None:
        """The next token that is not a space (math mode ignores spaces)."""
        while self.position < len(self.tokens) and self.tokens[self.position].isspace():
            self.position += 1
        return self.tokens[self.position] if self.position < len(self.tokens) else None

    def next(self) -> str | None:
        token = self.peek()
        self.position += token is not None
        return token

    def row(self, stop: str | None) -> str:
        """The atoms, with their scripts, up to ``stop`` (a closing brace, consumed) or the end."""
        out = []
        while (token := self.next()) is not None and token != stop:
            out.append(self.scripted(self.atom(token)))
        return "".join(out)

    def scripted(self, base: str) -> str:
        """``base`` with the sub- and superscripts (and primes) that follow it."""
        sub = sup = None
        while (token := self.peek()) in ("_", "^", "'"):
            self.next()
            if token == "_":
                sub = self.argument()
            else:
                sup = (sup or "") + ("<mo>′</mo>" if token == "'" else self.argument())
        if sub is not None and sup is not None:
            return f"<msubsup>{base}<mrow>{sub}</mrow><mrow>{sup}</mrow></msubsup>"
        if sub is not None:
            return f"<msub>{base}<mrow>{sub}</mrow></msub>"
        return f"<msup>{base}<mrow>{sup}</mrow></msup>" if sup is not None else base

    def argument(self) -> str:
        """The next group or single atom: a command's or a script's argument."""
        token = self.next()
        return "" if token is None else self.row(stop="}") if token == "{" else self.atom(token)

    def text_argument(self) -> str:
        """The next group's characters as written, spaces included (``\\text{max\\_exact}``: ``max_exact``)."""
        if self.peek() != "{":
            return self.next() or ""
        self.next()
        words, depth = [], 0
        while self.position < len(self.tokens):
            token = self.tokens[self.position]
            self.position += 1
            depth += {"{": 1, "}": -1}.get(token, 0)
            if depth < 0:
                break
            words.append(token[1:] if len(token) == 2 and token[0] == "\\" and not token[1].isalpha() else token)
        return "".join(words)

    def atom(self, token: str) -> str:
        """One token (and the arguments of a command) as MathML."""
        if token == "{":
            return f"<mrow>{self.row(stop='}')}</mrow>"
        if not token.startswith("\\") or len(token) == 1:
            kind = "mn" if token[0].isdigit() else "mi" if token.isalpha() else "mo"
            return f"<{kind}>{_escape(token)}</{kind}>"
        name = token[1:]
        if name == "frac":
            return f"<mfrac><mrow>{self.argument()}</mrow><mrow>{self.argument()}</mrow></mfrac>"
        if name == "sqrt":
            return f"<msqrt><mrow>{self.argument()}</mrow></msqrt>"
        if name in TEXT:
            return f"<mtext>{_escape(self.text_argument())}</mtext>"
        if name in VARIANTS:
            return f'<mi mathvariant="{VARIANTS[name]}">{_escape(self.text_argument())}</mi>'
        if name in LETTER_FONTS:
            start, exceptions = LETTER_FONTS[name]
            letters = "".join(
                exceptions.get(c) or (chr(start + ord(c) - ord("A")) if "A" <= c <= "Z" else c)
                for c in self.text_argument()
            )
            return f"<mi>{_escape(letters)}</mi>"
        if name in SIZING:
            delimiter = self.next() or ""
            shown = SYMBOLS.get(delimiter[1:], delimiter[1:]) if delimiter.startswith("\\") else delimiter
            return "" if shown == "." else f'<mo stretchy="true">{_escape(shown)}</mo>'
        if name in SPACES:
            return f'<mspace width="{SPACES[name]}"/>'
        if name in FUNCTIONS:
            return f"<mi>{name}</mi>"
        if name in SYMBOLS:
            symbol = SYMBOLS[name]
            return f"<mi>{symbol}</mi>" if symbol.isalpha() else f"<mo>{_escape(symbol)}</mo>"
        return f"<mtext>{_escape(token)}</mtext>"


def _escape(text: str) -> str:
    """Text inside MathML, with what HTML or Markdown would read as markup written as entities."""
    return text.translate(MARKDOWN_SPECIAL)


def markdown_with_mathml(source: str) -> str:
    """A Markdown cell's source with each ``$...$`` and ``$$...$$`` outside code written as MathML."""

    def replace(match: re.Match[str]) -> str:
        if match["code"]:
            return match["code"]
        return TeX.mathml(
            match["display"] if match["display"] is not None else match["inline"], display=match["display"] is not None
        )

    return MATH.sub(replace, source)


class MathToMathML(Preprocessor):
    """Write the math of Markdown cells as MathML, which browsers draw without MathJax: nbgrader's
    feedback page loads MathJax from a CDN, so offline its formulas showed as raw ``$$...$$``."""

    enabled = Bool(True).tag(config=True)

    def preprocess_cell(self, cell: NotebookNode, resources: dict, index: int) -> tuple[NotebookNode, dict]:
        if cell.cell_type == "markdown":
            cell.source = markdown_with_mathml(cell.source)
        return cell, resources
