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


def _grading_global_state():
    """The global random states as tensors (torch's generator; Python's ``random``; NumPy's, once loaded):
    the grader compares them before and after the student's code runs."""
    import random
    import sys

    import torch

    states = {
        "torch": torch.random.get_rng_state().clone(),
        "random": torch.tensor(random.getstate()[1], dtype=torch.long),
    }
    if "numpy" in sys.modules:
        states["numpy"] = torch.from_numpy(sys.modules["numpy"].random.get_state()[1].astype("int64"))
    return states


def _grading_param_state(module, given):
    """For each of ``module``'s weight and bias (those it has): whether it is still the parameter in
    ``given`` (the same object), a leaf, and whether it requires a gradient."""
    found = {}
    for name, before in given.items():
        now = getattr(module, name)
        found[name] = {"same": now is before, "leaf": now.is_leaf, "requires_grad": now.requires_grad}
    return found


def _grading_lora_fresh(weight, bias, r, alpha, x):
    """A fresh LoRALinear around an nn.Linear: whether it kept it and its parameters, its A and B,
    what trains, its output."""
    from torch import nn

    base = _grading_linear(weight, bias)
    given = {name: p for name, p in (("weight", base.weight), ("bias", base.bias)) if p is not None}
    layer = LoRALinear(base, r=r, alpha=alpha)  # noqa: F821 (the student's class, its arguments by name)
    params = dict(layer.named_parameters())
    return {
        "kept": layer.base is base,
        "base_params": _grading_param_state(base, given),
        # the object's type, not its __class__, which a class of the notebook's may make any (attacks_z)
        "are_parameters": [issubclass(type(getattr(layer, name)), nn.Parameter) for name in ("A", "B")],
        "A": layer.A.detach().clone(),
        "B": layer.B.detach().clone(),
        "requires_grad": {name: p.requires_grad for name, p in params.items()},
        "out": layer(x).detach(),
    } | _grading_start_gradients(layer, x)


def _grading_start_gradients(layer, x):
    """The gradients of a fresh layer's output probe (for a copy of ``x``) with respect to its A and B and
    to that input: at the start, B at zero, only B's is not zero."""
    x0 = x.clone().requires_grad_(True)
    out = layer(x0)
    if out.requires_grad:  # none otherwise: the check says what does not train
        (out * _grading_probe(out)).sum().backward()
    return {
        f"start_grad_{name}": None if t.grad is None else t.grad.detach().clone()
        for name, t in (("A", layer.A), ("B", layer.B), ("x", x0))
    }


def _grading_lora_run(weight, bias, r, alpha, A, B, xs):
    """A LoRALinear with ``A`` and ``B`` copied in: its outputs, the gradients of the first one's
    probe with respect to A, B and that input, then its merged weight and outputs, after one merge and two."""
    import torch

    base = _grading_linear(weight, bias)
    layer = LoRALinear(base, r, alpha)  # noqa: F821 (the student's class)
    # another layer of the model, of another rank and alpha, made before the first is used: nothing of one layer may
    # live on the class or in the module (corpus v: the scale kept on the class was the last layer's)
    other = LoRALinear(_grading_linear(weight, bias), r + 1, alpha * 3)  # noqa: F821
    rng_before = _grading_global_state()  # the forward pass, backward and merge draw nothing
    with torch.no_grad():
        layer(xs[0])  # evaluated once as it was made (a caller's check before training), then A and B change
        layer.A.copy_(A)
        layer.B.copy_(B)
    x0 = xs[0].clone().requires_grad_(True)
    outs = [layer(x0)] + [layer(x) for x in xs[1:]]
    (outs[0] * _grading_probe(outs[0])).sum().backward()
    found = {
        "outs": [out.detach() for out in outs],
        "grad_x": None if x0.grad is None else x0.grad.detach().clone(),
        "grad_A": None if layer.A.grad is None else layer.A.grad.detach().clone(),
        "grad_B": None if layer.B.grad is None else layer.B.grad.detach().clone(),
        "base_grads": [p.grad is not None for p in base.parameters()],
    }
    # A and B frozen (a trained adapter switched to inference, or frozen by freeze_except): the same outputs
    layer.A.requires_grad_(False)
    layer.B.requires_grad_(False)
    found["frozen_outs"] = [layer(x).detach() for x in xs]
    layer.A.requires_grad_(True)
    layer.B.requires_grad_(True)
    with torch.no_grad():  # and without autograd: the same outputs from the A and B the layer holds now
        found["no_grad_outs"] = [layer(x) for x in xs]
    given = {name: p for name, p in (("weight", base.weight), ("bias", base.bias)) if p is not None}
    with torch.no_grad():
        other.A.copy_(torch.cat([A, A[:1]]))
        other.B.copy_(torch.cat([B, B[:, :1]], dim=1))
        found["other_outs"] = [other(x) for x in xs]
    layer.merge()
    found["merged_state"] = _grading_param_state(layer.base, given)
    # read through what the driver holds (the Linear it made and its parameters), not through the layer:
    # a copy of base, or a weight replaced by a new parameter, shows here as an unchanged weight
    found["merged_weight"] = given["weight"].detach().clone()
    found["merged_bias"] = None if bias is None else given["bias"].detach().clone()
    with torch.no_grad():
        found["merged_outs"] = [layer(x) for x in xs]
        found["base_outs"] = [base(x) for x in xs]
    layer.merge()
    found["twice_state"] = _grading_param_state(layer.base, given)
    found["twice_weight"] = given["weight"].detach().clone()
    with torch.no_grad():
        found["twice_outs"] = [layer(x) for x in xs]
    found["rng"] = [rng_before, _grading_global_state()]
    return found


def _grading_lora_step(weight, bias, r, alpha, A, B, xs, lr):
    """A LoRALinear with ``A`` and ``B`` copied in, one step of plain SGD (``lr``) over whatever its
    ``parameters()`` list, on the gradient of the first input's probe: its outputs afterwards and
    base's weight and bias as the driver holds them. What trains, what is frozen and what the
    optimizer sees show in these values, which the grader computes itself: nothing here is a verdict."""
    import torch

    base = _grading_linear(weight, bias)
    given = {name: p for name, p in (("weight", base.weight), ("bias", base.bias)) if p is not None}
    layer = LoRALinear(base, r, alpha)  # noqa: F821 (the student's class)
    with torch.no_grad():
        layer.A.copy_(A)
        layer.B.copy_(B)
    rng_before = _grading_global_state()
    out = layer(xs[0])
    (out * _grading_probe(out)).sum().backward()
    torch.optim.SGD(layer.parameters(), lr=lr).step()
    with torch.no_grad():
        outs = [layer(x) for x in xs]
    return {
        "outs": outs,
        "weight": given["weight"].detach().clone(),
        "bias": None if bias is None else given["bias"].detach().clone(),
        "rng": [rng_before, _grading_global_state()],
    }


def _grading_owner(model, name):
    """The submodule of ``model`` at the dotted path of ``name`` (made as it goes), and the last part."""
    from torch import nn

    *path, leaf = name.split(".")
    owner = model
    for step in path:
        if step not in owner._modules:
            owner.add_module(step, nn.Module())
        owner = owner._modules[step]
    return owner, leaf


def _grading_freeze(shapes, frozen, patterns, buffers):
    """freeze_except on a model whose parameters have the given names (dotted paths of submodules)
    and shapes, those in ``frozen`` frozen first, beside the given buffers: what it returned, what
    trains afterwards, and whether each buffer requires a gradient afterwards; or, if it raised
    ValueError, which of the patterns its message names (the message itself stays here: a hidden
    case's message is never shown)."""
    import torch
    from torch import nn

    model = nn.Module()
    for name, shape in shapes.items():
        owner, leaf = _grading_owner(model, name)
        owner.register_parameter(leaf, nn.Parameter(torch.zeros(shape), requires_grad=name not in frozen))
    for name, value in buffers.items():
        owner, leaf = _grading_owner(model, name)
        owner.register_buffer(leaf, value)
    rng_before = _grading_global_state()
    try:
        # the second argument by its name: the spec's names are the caller's to use
        returned = freeze_except(model, patterns=list(patterns))  # noqa: F821 (the student's function)
    except ValueError as error:
        return {"named": [pattern for pattern in patterns if pattern in str(error)]}
    return {
        "rng": [rng_before, _grading_global_state()],
        "returned": returned,
        "trains": {name: p.requires_grad for name, p in model.named_parameters()},
        "buffers": {name: b.requires_grad for name, b in model.named_buffers()},
    }


def _grading_features(features, kind):
    """The features as the caller holds them: ``"plain"``; ``"leaf"``, a leaf that requires a
    gradient; ``"graph"``, the output of a computation on such a leaf (a cache that kept the
    encoder's graph). Returns (the features, the leaf a gradient could reach, or None)."""
    if kind == "plain":
        return features.clone(), None
    source = features.clone().requires_grad_(True)
    return (source, source) if kind == "leaf" else (source * 1.0, source)


def _grading_probe_steps(weight, bias, optimizer, settings, batches, stale):
    """probe_step on an nn.Linear holding ``weight`` and ``bias`` with ``torch.optim.<optimizer>``,
    its weight's and bias's ``.grad`` holding ``stale`` (gradients left by earlier work), one call
    per batch (features, labels, how the caller holds the features: see _grading_features): after
    each, what it returned, the probe's weight and bias, and what became of the caller's features."""
    import torch

    probe = _grading_linear(weight, bias)
    probe.weight.grad, probe.bias.grad = (g.clone() for g in stale)
    opt = getattr(torch.optim, optimizer)(probe.parameters(), **settings)
    steps = []
    rng_before = _grading_global_state()
    for features, labels, kind in batches:
        features, source = _grading_features(features, kind)
        before = (features.detach().clone(), features.requires_grad, features.grad_fn is not None)
        returned = probe_step(probe, opt, features=features, labels=labels)  # noqa: F821 (the student's function)
        steps.append(
            {
                "returned": returned,
                "weight": probe.weight.detach().clone(),
                "bias": probe.bias.detach().clone(),
                "features_grad": source is not None and source.grad is not None,
                "features_kept": torch.equal(features.detach(), before[0])
                and (features.requires_grad, features.grad_fn is not None) == before[1:],
            }
        )
    steps[-1]["rng"] = [rng_before, _grading_global_state()]
    return steps


def _grading_adapter_fresh(d_model, bottleneck, x):
    """A fresh Adapter: its parameters (shapes, whether they train), down and up, its output."""
    import torch
    from torch import nn

    adapter = Adapter(d_model=d_model, bottleneck=bottleneck)  # noqa: F821 (the student's class, by name)
    params = dict(adapter.named_parameters())
    before = x.clone()
    out = adapter(x)
    found = {
        "shapes": {name: list(p.shape) for name, p in params.items()},
        "requires_grad": {name: p.requires_grad for name, p in params.items()},
        "linear": [issubclass(type(getattr(adapter, name, None)), nn.Linear) for name in ("down", "up")],
        "out": out.detach(),
        "returned_input": out is x,
    }
    if all(found["linear"]):
        found |= {
            f"{layer}.{kind}": getattr(getattr(adapter, layer), kind).detach().clone()
            for layer in ("down", "up")
            for kind in ("weight", "bias")
        }
    # the gradients at the start (up at zero) of a new input's probe; an input changed is judged alone
    if torch.equal(x, before):
        x0 = x.clone().requires_grad_(True)
        out0 = adapter(x0)
        if out0.requires_grad:  # none otherwise: the check says what does not train
            (out0 * _grading_probe(out0)).sum().backward()
        found["grads"] = {name: None if p.grad is None else p.grad.detach().clone() for name, p in params.items()}
        found["grad_x"] = None if x0.grad is None else x0.grad.detach().clone()
    return found


def _grading_adapter_run(d_model, bottleneck, weights, xs):
    """An Adapter with ``weights`` copied in: whether it left its inputs as they were (if not, that
    alone), its outputs, and the gradients of the first one's probe with respect to its parameters
    and to the input."""
    import torch

    adapter = Adapter(d_model, bottleneck)  # noqa: F821 (the student's class)
    params = dict(adapter.named_parameters())
    rng_before = _grading_global_state()
    with torch.no_grad():
        adapter(xs[0].clone())  # evaluated once as it was made, then its weights change in place
        for name, value in weights.items():
            params[name].copy_(value)
    kept = []
    for x in xs:  # first on copies that need no gradient, where an in-place change of the input can happen
        copy = x.clone()
        adapter(copy)
        kept.append(torch.equal(copy, x))
    if not all(kept):
        return {"inputs_kept": kept, "rng": [rng_before, _grading_global_state()]}
    x0 = xs[0].clone().requires_grad_(True)
    outs = [adapter(x0)] + [adapter(x) for x in xs[1:]]
    (outs[0] * _grading_probe(outs[0])).sum().backward()
    grads = {name: None if p.grad is None else p.grad.detach().clone() for name, p in params.items()}
    with torch.no_grad():
        no_grad_outs = [adapter(x) for x in xs]
    return {
        "inputs_kept": kept,
        "outs": [out.detach() for out in outs],
        "no_grad_outs": no_grad_outs,
        "grads": grads,
        "grad_x": None if x0.grad is None else x0.grad.detach().clone(),
        "rng": [rng_before, _grading_global_state()],
    }
