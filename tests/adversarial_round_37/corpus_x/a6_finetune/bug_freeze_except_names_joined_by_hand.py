# expect: loses freeze_except -- "The names are those `model.named_parameters()` gives": the names are rebuilt by walking `named_modules()` and joining each module's path and its own parameter names with a dot, f"{module_name}.{param_name}"; for every parameter of a submodule that is the same name, but a parameter registered on the model itself (a top-level `cls_token`, `pos_embedding` or `logit_scale`, as ViT and CLIP have) is named ".cls_token", so a pattern "cls_token" (or "pos_*") matches nothing and raises ValueError, and "*" still matches it; TinyClassifier has no top-level parameter
# %% [freeze_except]
def freeze_except(model, patterns):
    """Freeze every parameter of model whose name matches none of the glob patterns; return the number of trainable numbers."""
    named = []
    for module_name, module in model.named_modules():
        for param_name, param in module.named_parameters(recurse=False):
            named.append((f"{module_name}.{param_name}", param))
    used = set()
    trainable = 0
    for name, param in named:
        hits = [pattern for pattern in patterns if fnmatch.fnmatchcase(name, pattern)]
        used.update(hits)
        param.requires_grad_(bool(hits))
        trainable += param.numel() if hits else 0
    missing = [pattern for pattern in patterns if pattern not in used]
    if missing:
        raise ValueError(f"patterns that match no parameter: {missing}")
    return trainable
