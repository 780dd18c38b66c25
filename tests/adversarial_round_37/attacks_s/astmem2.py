import ast, resource, sys, time
kind = sys.argv[1]; n = int(float(sys.argv[2]) * 2**20)
S = {"names": lambda: "a=[" + "b," * (n // 2 - 4) + "]\n",
     "semi": lambda: "a;" * (n // 2) + "\n",
     "tuple": lambda: "a," * (n // 2) + "\n",
     "lines": lambda: "a\n" * (n // 2),
     "subs": lambda: "a=[" + "b[c]," * (n // 5 - 4) + "]\n",
     "lambda": lambda: "a=[" + "lambda:b," * (n // 9 - 4) + "]\n",
     "fstr": lambda: "a=[" + "f'{b}'," * (n // 7 - 4) + "]\n",
}
src = S[kind]()
t = time.time()
tree = ast.parse(src)
print(kind, len(src), "wall", round(time.time()-t,2), "maxrss_MB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss//1024, "ratio", round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss*1024/len(src)))
