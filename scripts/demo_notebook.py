"""Writes examples/demo/posts/simulating-a-queue.ipynb, the demo's notebook post, as if
Jupyter had run it: Markdown with math, code, a printed table, a data frame's HTML, a
plot (a PNG drawn here with Pillow, so nothing needs matplotlib) and a cell that fails.

Run it again after changing it: `python scripts/demo_notebook.py`. The output is the
same bytes each time."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "examples/demo/posts/simulating-a-queue.ipynb"
RHOS = [0.1 * i for i in range(1, 10)]


def draw_plot() -> bytes:
    """Mean jobs L = rho / (1 - rho) against rho, as a small line chart."""
    width, height, pad = 480, 300, 40
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    draw.line([(pad, pad // 2), (pad, height - pad), (width - pad // 2, height - pad)],
              fill="#1b1d21", width=2)
    points = [(pad + (rho - 0.1) / 0.8 * (width - 1.5 * pad),
               height - pad - rho / (1 - rho) / 9 * (height - 1.5 * pad)) for rho in RHOS]
    draw.line(points, fill="#1a5bb0", width=3)
    for x, y in points:
        draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill="#a3123f")
    draw.text((width // 2 - 20, height - pad + 12), "utilisation", fill="#1b1d21")
    draw.text((6, pad // 2 - 14), "mean jobs", fill="#1b1d21")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def markdown(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def code(number: int, text: str, outputs: list) -> dict:
    return {"cell_type": "code", "execution_count": number, "metadata": {},
            "outputs": outputs, "source": text}


def table_html() -> str:
    rows = "".join(f"<tr><th>{i}</th><td>{rho:.1f}</td><td>{rho / (1 - rho):.2f}</td></tr>"
                   for i, rho in enumerate(RHOS[::2]))
    return ('<style scoped>.dataframe tbody tr th { vertical-align: top; }</style>'
            '<table border="1" class="dataframe"><thead><tr style="text-align: right;">'
            f'<th></th><th>rho</th><th>L</th></tr></thead><tbody>{rows}</tbody></table>')


def make_notebook() -> dict:
    plot = base64.b64encode(draw_plot()).decode("ascii")
    error = ["\x1b[0;31m---------------------------------------------------------------------------\x1b[0m",
             "\x1b[0;31mValueError\x1b[0m                                Traceback (most recent call last)",
             "Cell \x1b[0;32mIn[4], line 1\x1b[0m\n\x1b[0;32m----> 1\x1b[0m mean_jobs(\x1b[38;5;241m1.0\x1b[39m)",
             "\x1b[0;31mValueError\x1b[0m: rho must be below 1: the queue grows without bound"]
    cells = [
        markdown("# Simulating a queue\n\nThis post is a Jupyter notebook: the build renders "
                 "it as it was last run. For an M/M/1 queue at utilisation "
                 "$\\rho = \\lambda / \\mu$, the mean number of jobs is\n\n"
                 "$$L = \\frac{\\rho}{1 - \\rho}$$"),
        code(1, "def mean_jobs(rho: float) -> float:\n    if rho >= 1:\n        raise "
             "ValueError(\"rho must be below 1: the queue grows without bound\")\n"
             "    return rho / (1 - rho)\n\nprint([round(mean_jobs(r), 2) for r in (0.5, 0.8, 0.9)])",
             [{"name": "stdout", "output_type": "stream", "text": "[1.0, 4.0, 9.0]\n"}]),
        markdown("## A table\n\nThe same numbers as a data frame, which Jupyter shows as a table:"),
        code(2, "import pandas as pd\nrhos = [0.1, 0.3, 0.5, 0.7, 0.9]\n"
             "pd.DataFrame({'rho': rhos, 'L': [mean_jobs(r) for r in rhos]})",
             [{"output_type": "execute_result", "execution_count": 2, "metadata": {},
               "data": {"text/html": table_html(),
                        "text/plain": "   rho     L\n0  0.1  0.11\n1  0.3  0.43"}}]),
        markdown("## A plot\n\nThe mean grows without bound as $\\rho \\to 1$:"),
        code(3, "plot_mean_jobs(rhos)",
             [{"output_type": "display_data", "metadata": {},
               "data": {"image/png": plot,
                        "text/plain": "Mean jobs L against utilisation rho: flat up to 0.5, "
                                      "then rising steeply towards 9 at 0.9"}}]),
        markdown("## An error\n\nAt $\\rho = 1$ there is no steady state, and the code says so:"),
        code(4, "mean_jobs(1.0)",
             [{"output_type": "error", "ename": "ValueError",
               "evalue": "rho must be below 1: the queue grows without bound",
               "traceback": error}]),
    ]
    metadata = {"kernelspec": {"display_name": "Python 3", "language": "python",
                               "name": "python3"},
                "language_info": {"name": "python"},
                "scholarsite": {"date": "2025-07-14", "tags": ["scheduling", "math"],
                                "summary": "A Jupyter notebook as a post: math, a table, "
                                           "a plot and an error, rendered by the build."}}
    return {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def add_ids(notebook: dict) -> None:
    for i, cell in enumerate(notebook["cells"]):
        cell["id"] = f"cell-{i}"


if __name__ == "__main__":
    notebook = make_notebook()
    add_ids(notebook)
    OUT.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(OUT)
