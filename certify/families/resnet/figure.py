"""Figure 1 of math.md §2: the real image M of the bias-free scalar quadratic two-layer ResNet
F(x) = x + (w1^2 + w2^2) x^2 + 2 w1^2 w2^2 x^3 + w1^4 w2^2 x^4 in (c2, c3, c4), for
0 <= c2 <= 2, with the singular half-line {(t, 0, 0) : t >= 0} in red, and the section c2 = 1.

M lies in {c3^3 - 4 c2 c3 c4 + 8 c4^2 = 0}; that identity is certified by the kernel-checked
`implicit` certificate of the demo (resnet-figure-1), not by this drawing."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

FIGURES = ("resnet-quadratic",)
FIGURE_ONE_EQUATION = "-4*c2*c3*c4 + c3^3 + 8*c4^2"  # canonical text of c3^3 - 4 c2 c3 c4 + 8 c4^2


def is_figure_one(cert: dict[str, Any]) -> bool:
    """An implicit certificate about Figure 1's network (bias-free scalar quadratic, depth 2)."""
    if cert.get("kind") != "implicit":
        return False
    net = cert["instance"]["network"]
    return (
        net.get("width") == 1
        and net.get("depth") == 2
        and not net.get("outer")
        and all(a == ["0", "0", "1"] for a in net.get("activations", []))
        and cert["result"].get("fixed_at_zero") == ["b1", "b2"]
        and cert["result"].get("equation") == FIGURE_ONE_EQUATION
    )


def figures(cert: dict[str, Any]) -> dict[str, Callable[[Path], None]]:
    """The pictures an implicit certificate calls for (registry: Kind.figures): Figure 1
    for one about Figure 1's network."""
    return {"resnet-quadratic.png": draw_resnet_quadratic} if is_figure_one(cert) else {}


def image_point(a: float, b: float) -> tuple[float, float, float]:
    """(c2, c3, c4) at w1^2 = a, w2^2 = b (a, b >= 0)."""
    return a + b, 2 * a * b, a * a * b


def implicit_value(c2: Fraction, c3: Fraction, c4: Fraction) -> Fraction:
    return c3**3 - 4 * c2 * c3 * c4 + 8 * c4**2


def draw_resnet_quadratic(out: Path) -> None:
    """Write the picture as PNG (deterministic: Agg backend, no time stamp in the metadata)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig = plt.figure(figsize=(11, 4.8), dpi=100)
    # computed_zorder=False: drawn in the order below, so the half-line and the section c2 = 1
    # stay visible over the translucent surface they lie on.
    ax = fig.add_subplot(1, 2, 1, projection="3d", computed_zorder=False)
    # (s, u) -> a = s u, b = s (1 - u): c2 = s covers 0 <= c2 <= 2, u in [0, 1].
    s, u = np.meshgrid(np.linspace(0, 2, 41), np.linspace(0, 1, 41))
    a, b = s * u, s * (1 - u)
    c2, c3, c4 = image_point(a, b)  # type: ignore[arg-type]
    ax.plot_surface(c2, c3, c4, color="tab:blue", alpha=0.45, linewidth=0, antialiased=False,
                    zorder=1)  # fmt: skip
    t = np.linspace(0, 2, 2)
    ax.plot(t, 0 * t, 0 * t, color="red", linewidth=3, label="singular half-line (t, 0, 0)",
            zorder=3)  # fmt: skip
    uu = np.linspace(0, 1, 200)
    ax.plot(0 * uu + 1, 2 * uu * (1 - uu), uu * uu * (1 - uu), color="black", linewidth=2,
            label="section c2 = 1", zorder=3)  # fmt: skip
    ax.scatter([2], [2], [1], color="black", s=20, zorder=4)
    # left of the point, clear of the c4 axis's tick labels on the right
    ax.text(1.9, 2, 1.12, "(2,2,1) = F(w=(±1,±1))", fontsize=8, ha="right", zorder=4)
    ax.set_xlabel("c2")
    ax.set_ylabel("c3")
    ax.set_zlabel("c4")
    ax.set_title("Image M of (w1, w2) -> (c2, c3, c4), 0 <= c2 <= 2")
    ax.view_init(elev=22, azim=-58)
    ax.legend(loc="upper left", fontsize=8)
    ax2 = fig.add_subplot(1, 2, 2)
    ax2.plot(2 * uu * (1 - uu), uu * uu * (1 - uu), color="black")
    ax2.plot([0], [0], "o", color="red", label="c3 = c4 = 0 (w1 w2 = 0)")
    ax2.set_xlabel("c3")
    ax2.set_ylabel("c4")
    ax2.set_title("Section c2 = 1: c3^3 - 4 c3 c4 + 8 c4^2 = 0")
    ax2.legend(fontsize=8)
    ax2.grid(True, alpha=0.3)
    fig.suptitle("Bias-free scalar quadratic two-layer ResNet: M ⊂ {c3³ − 4 c2 c3 c4 + 8 c4² = 0}")
    fig.tight_layout()
    fig.savefig(out, format="png", metadata={"Software": None})
    plt.close(fig)


def draw(name: str, out: Path) -> None:
    """`certify figure NAME --out PNG`: an unusable --out (a directory, or a place no file
    can be written) is an OutputError (exit 2) naming it, raised before the drawing."""
    import os

    from certify.errors import OutputError

    if name != "resnet-quadratic":
        raise ValueError(f"unknown figure {name!r}: expected one of {list(FIGURES)}")
    out = Path(out)
    if out.is_dir():
        raise OutputError(f"--out {out}: expected a PNG file path, got a directory")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        if not os.access(out.parent, os.W_OK | os.X_OK):
            raise PermissionError(f"{out.parent} is not a writable directory")
        draw_resnet_quadratic(out)
    except OSError as e:
        raise OutputError(f"--out {out}: cannot write: {e.strerror or e}") from None
