# expect: 12/12 (the answer key, plus a cell after the imports that keeps a 480 MB table of examples in a global: honest, far inside the 6 GiB limit)
# %% [new after imports]
examples = torch.zeros(120_000_000)  # 480 MB of float32, kept for later experiments
print(examples.numel())
