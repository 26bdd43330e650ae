# A small line chart of scores over time, drawn as inline SVG with DOM calls
# (no markup strings, no external service). Points carry <title> tooltips.
from pyscript import document

from words import words

SVG = "http://www.w3.org/2000/svg"
W, H = 320, 160
PAD_L, PAD_R, PAD_T, PAD_B = 36, 10, 10, 22


def node(tag, attrs=None, text=None):
    n = document.createElementNS(SVG, tag)
    for k, v in (attrs or {}).items():
        n.setAttribute(k, str(v))
    if text is not None:
        n.textContent = str(text)
    return n


def score_chart(points, label=None):
    """``points``: [(when text, score), ...] oldest first. Returns an <svg> element."""
    svg = node("svg", {"viewBox": "0 0 " + str(W) + " " + str(H), "class": "chart", "role": "img",
                       "aria-label": label or words.t("chart.label"), "data-points": len(points)})
    svg.appendChild(node("title", None, label or words.t("chart.label")))
    if not points:
        return svg
    scores = [p[1] for p in points]
    lo, hi = min(scores + [0]), max(scores)
    if hi == lo:
        hi = lo + 1
    n = len(points)

    def x(i):
        return PAD_L + (W - PAD_L - PAD_R) * (i / (n - 1) if n > 1 else 0.5)

    def y(v):
        return PAD_T + (H - PAD_T - PAD_B) * (1 - (v - lo) / (hi - lo))

    # axes and the lowest/highest score
    svg.appendChild(node("line", {"x1": PAD_L, "y1": H - PAD_B, "x2": W - PAD_R, "y2": H - PAD_B,
                                  "class": "axis"}))
    svg.appendChild(node("line", {"x1": PAD_L, "y1": PAD_T, "x2": PAD_L, "y2": H - PAD_B, "class": "axis"}))
    for v in sorted(set([lo, hi] + ([0] if lo < 0 else []))):
        svg.appendChild(node("text", {"x": PAD_L - 4, "y": round(y(v), 1) + 4, "text-anchor": "end",
                                      "class": "tick"}, words.num(v)))
    svg.appendChild(node("text", {"x": PAD_L, "y": H - 6, "class": "tick"}, 1))
    if n > 1:
        svg.appendChild(node("text", {"x": W - PAD_R, "y": H - 6, "text-anchor": "end", "class": "tick"}, n))
    line = " ".join(str(round(x(i), 1)) + "," + str(round(y(v), 1)) for i, v in enumerate(scores))
    svg.appendChild(node("polyline", {"points": line, "class": "line", "fill": "none"}))
    for i, (when, v) in enumerate(points):
        c = node("circle", {"cx": round(x(i), 1), "cy": round(y(v), 1), "r": 3.5, "class": "dot",
                            "data-score": v})
        c.appendChild(node("title", None, words.t("chart.point", n=i + 1, score=words.num(v))
                           + (" (" + str(when) + ")" if when else "")))
        svg.appendChild(c)
    return svg
