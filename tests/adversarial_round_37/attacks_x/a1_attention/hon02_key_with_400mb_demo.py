# expect: 12/12 (the answer key, plus a cell after the imports that keeps a 400 MB table of examples in a global: honest, far inside the 6 GiB limit)
# %% [new after imports]
examples = torch.zeros(100_000_000)  # 400 MB of float32, kept for later experiments
print(examples.numel())
