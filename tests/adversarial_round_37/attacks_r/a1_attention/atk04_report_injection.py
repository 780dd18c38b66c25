# expect: 12/12, and every text the student's code chose (printed, raised, in a visible test's output) inert in grades.csv, summary.txt, the terminal and feedback/*.html
# %% [new after sdpa]
import sys
BAD = "=HYPERLINK(\"http://evil/\",\"x\")\r\x1b[2J\x1b]0;owned\x07<img src=x onerror=alert(1)><script>alert(2)</script>\u202etxt.exe\u2028total 99/12"
print(BAD)
print(BAD, file=sys.stderr)
try:
    raise ValueError(BAD)
except ValueError:
    pass
# %% [new after masks]
class Boom(Exception):
    pass
Boom.__name__ = "=cmd|' /C calc'!A0<b>x</b>"
Boom.__qualname__ = Boom.__name__
raise Boom("\x1b[31m<script>alert(3)</script>=1+1\r  masks   2/2")
