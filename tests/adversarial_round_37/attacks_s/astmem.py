import ast, resource, sys, time
kind = sys.argv[1]; n = 19 * 2**20
if kind == "assign": src = "a=1\n" * (n // 4)
elif kind == "list": src = "a=[" + "1," * (n // 2 - 4) + "]\n"
elif kind == "names": src = "a=[" + "b," * (n // 2 - 4) + "]\n"
elif kind == "calls": src = "f(" + "1,"*(n//2 - 4) + ")\n"
elif kind == "attr": src = "a" + ".b" * (n//2 - 2) + "\n"
elif kind == "binop": src = "a=" + "1+" * (n//2 - 4) + "1\n"
t = time.time()
try:
    tree = ast.parse(src); r = "ok"
except BaseException as e: r = type(e).__name__
print(kind, r, "wall", round(time.time()-t,1), "maxrss_MB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss//1024)
