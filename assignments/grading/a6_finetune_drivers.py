"""How a6's hidden checks reach the student's classes (instructor-only). Read as source by the
checks and handed to ``Student.call(..., driver=...)``: each function runs beside the student's code,
for one call, and finds ``LoRALinear``, ``freeze_except``, ``probe_step`` and ``Adapter`` among the
notebook's names. A module or an optimizer cannot cross to the grader, so each driver builds them
from the plain values the check chose, calls the student's code, and returns plain values (outputs,
weights, gradients, flags); the oracles and the comparisons stay in the grader. The drivers compute
nothing that is graded themselves: what they return is what the student's objects did."""


def _grading_linear(weight, bias):
    """An nn.Linear holding ``weight`` (out, in) and ``bias`` (out,) or no bias."""
    import torch
    from torch import nn

    base = nn.Linear(weight.shape[1], weight.shape[0], bias=bias is not None)
    with torch.no_grad():
        base.weight.copy_(weight)
        if bias is not None:
            base.bias.copy_(bias)
    return base


def _grading_probe(out):
    """The fixed weights of the linear function of an output whose gradient a check compares."""
    import torch

    return torch.linspace(-1, 1, out.numel(), dtype=out.dtype).view(out.shape)


def _grading_lora_fresh(weight, bias, r, alpha, x):
    """A fresh LoRALinear around an nn.Linear: whether it kept it, its A and B, what trains, its output."""
    base = _grading_linear(weight, bias)
    layer = LoRALinear(base, r, alpha)  # noqa: F821 (the student's class)
    params = dict(layer.named_parameters())
    return {
        "kept": layer.base is base,
        "are_parameters": [type(getattr(layer, name)).__name__ for name in ("A", "B")],
        "A": layer.A.detach().clone(),
        "B": layer.B.detach().clone(),
        "requires_grad": {name: p.requires_grad for name, p in params.items()},
        "out": layer(x).detach(),
    }


def _grading_lora_run(weight, bias, r, alpha, A, B, xs):
    """A LoRALinear with ``A`` and ``B`` copied in: its outputs, the gradients of the first one's
    probe with respect to A and B, then its merged weight and outputs, after one merge and two."""
    import torch

    base = _grading_linear(weight, bias)
    layer = LoRALinear(base, r, alpha)  # noqa: F821 (the student's class)
    with torch.no_grad():
        layer.A.copy_(A)
        layer.B.copy_(B)
    outs = [layer(x) for x in xs]
    (outs[0] * _grading_probe(outs[0])).sum().backward()
    found = {
        "outs": [out.detach() for out in outs],
        "grad_A": None if layer.A.grad is None else layer.A.grad.detach().clone(),
        "grad_B": None if layer.B.grad is None else layer.B.grad.detach().clone(),
        "base_grads": [p.grad is not None for p in base.parameters()],
    }
    layer.merge()
    found["merged_weight"] = layer.base.weight.detach().clone()
    found["merged_bias"] = None if layer.base.bias is None else layer.base.bias.detach().clone()
    with torch.no_grad():
        found["merged_outs"] = [layer(x) for x in xs]
        found["base_outs"] = [layer.base(x) for x in xs]
    layer.merge()
    found["twice_weight"] = layer.base.weight.detach().clone()
    with torch.no_grad():
        found["twice_outs"] = [layer(x) for x in xs]
    return found


def _grading_freeze(shapes, frozen, patterns):
    """freeze_except on a model whose parameters have the given names (dotted paths of submodules)
    and shapes, those in ``frozen`` frozen first: what it returned, and what trains afterwards."""
    import torch
    from torch import nn

    model = nn.Module()
    for name, shape in shapes.items():
        *path, leaf = name.split(".")
        owner = model
        for step in path:
            if step not in owner._modules:
                owner.add_module(step, nn.Module())
            owner = owner._modules[step]
        owner.register_parameter(leaf, nn.Parameter(torch.zeros(shape), requires_grad=name not in frozen))
    returned = freeze_except(model, list(patterns))  # noqa: F821 (the student's function)
    return returned, {name: p.requires_grad for name, p in model.named_parameters()}


def _grading_probe_steps(weight, bias, optimizer, settings, batches):
    """probe_step on an nn.Linear holding ``weight`` and ``bias`` with ``torch.optim.<optimizer>``,
    one call per batch (features, labels, whether the features require a gradient): after each,
    what it returned, the probe's weight and bias, and whether a gradient reached the features."""
    import torch

    probe = _grading_linear(weight, bias)
    opt = getattr(torch.optim, optimizer)(probe.parameters(), **settings)
    steps = []
    for features, labels, needs_grad in batches:
        features = features.clone().requires_grad_(needs_grad)
        returned = probe_step(probe, opt, features, labels)  # noqa: F821 (the student's function)
        steps.append({"returned": returned, "weight": probe.weight.detach().clone(), "bias": probe.bias.detach().clone(), "features_grad": features.grad is not None})
    return steps


def _grading_adapter_fresh(d_model, bottleneck, x):
    """A fresh Adapter: its parameters (shapes, whether they train), down and up, its output."""
    from torch import nn

    adapter = Adapter(d_model, bottleneck)  # noqa: F821 (the student's class)
    params = dict(adapter.named_parameters())
    found = {
        "shapes": {name: list(p.shape) for name, p in params.items()},
        "requires_grad": {name: p.requires_grad for name, p in params.items()},
        "linear": [isinstance(getattr(adapter, name, None), nn.Linear) for name in ("down", "up")],
        "out": adapter(x).detach(),
    }
    if all(found["linear"]):
        found |= {f"{layer}.{kind}": getattr(getattr(adapter, layer), kind).detach().clone() for layer in ("down", "up") for kind in ("weight", "bias")}
    return found


def _grading_adapter_run(d_model, bottleneck, weights, xs):
    """An Adapter with ``weights`` copied in: its outputs, and the gradients of the first one's
    probe with respect to its parameters and to the input."""
    import torch

    adapter = Adapter(d_model, bottleneck)  # noqa: F821 (the student's class)
    params = dict(adapter.named_parameters())
    with torch.no_grad():
        for name, value in weights.items():
            params[name].copy_(value)
    x0 = xs[0].clone().requires_grad_(True)
    outs = [adapter(x0)] + [adapter(x) for x in xs[1:]]
    (outs[0] * _grading_probe(outs[0])).sum().backward()
    grads = {name: None if p.grad is None else p.grad.detach().clone() for name, p in params.items()}
    return {"outs": [out.detach() for out in outs], "grads": grads, "grad_x": None if x0.grad is None else x0.grad.detach().clone()}
