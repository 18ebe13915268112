"""Helpers shared by the plots of every workflow."""

from __future__ import annotations

import functools
import os
import textwrap

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.ticker import Locator

from ._draws import evenly_spaced


#: characters of a label a plot shows in full (longer ones lose their middle)
LABEL_CHARS = 40


def short(label):
    """``label`` as text, at most :data:`LABEL_CHARS` characters: its start and end around
    "..." (labels that differ only at their ends stay apart; a 300-character label made a
    plot 2700 pixels wide)."""
    text = str(label)
    if len(text) <= LABEL_CHARS:
        return text
    end = (LABEL_CHARS - 3) // 3
    return text[:LABEL_CHARS - 3 - end] + "..." + text[-end:]


def short_labels(labels):
    """:func:`short` of each label; labels that would read alike (they differ in the middle)
    show their start and, after "...", the text from where they differ."""
    texts = [str(x) for x in labels]
    out = [short(t) for t in texts]
    groups = {}
    for t, o in zip(texts, out):
        groups.setdefault(o, set()).add(t)
    for k, t in enumerate(texts):
        alike = groups[out[k]]
        if len(alike) > 1:
            start = max(len(os.path.commonprefix(list(alike))) - 4, 0)
            head = LABEL_CHARS // 4
            out[k] = t[:head] + "..." + t[start:start + LABEL_CHARS - head - 3]
    return out


def ensure_axes(ax, rows=None, square=False):
    """``ax``, or the Axes of a new figure when None: tall enough for ``rows`` labelled rows
    (0.09 inch each, xx-small labels apart), and as wide with ``square`` (a heat map)."""
    if ax is not None:
        return ax
    width, height = plt.rcParams["figure.figsize"]
    height = max(height, 0.09 * (rows or 0) + 1.5)
    # constrained: long tick labels (player names) stay inside the figure when it is saved
    return plt.subplots(figsize=(max(width, height) if square else width, height),
                        layout="constrained")[1]


def checks_axes(plot):
    """``plot`` with its ``ax=`` / ``axes=`` checked before any work (every public plot): a
    Figure or text failed inside matplotlib, after the plot's table had been computed."""
    @functools.wraps(plot)
    def checked(*args, **kwargs):
        for name in ("ax", "axes"):
            given = kwargs.get(name)
            if given is not None:
                for ax in (np.ravel(given) if isinstance(given, (np.ndarray, list, tuple))
                           else [given]):
                    _checked_axes(ax, name)
        return plot(*args, **kwargs)
    return checked


def _checked_axes(ax, name):
    """``ax`` where it is a matplotlib Axes; else a TypeError naming ``name=`` and the fix."""
    if isinstance(ax, Axes):
        return ax
    hint = " (a Figure: give fig.gca() or fig.add_subplot())" if isinstance(ax, Figure) else ""
    raise TypeError(f"{name}= takes matplotlib Axes, e.g. fig, ax = plt.subplots(); got "
                    f"{type(ax).__name__}{hint}")


def row_fontsize(ax, rows, base="small", axis="y"):
    """The font size (points) of ``rows`` tick labels along ``ax``'s y (or x) axis: ``base``,
    shrunk where a row's share of the Axes' height (width, after the figure's layout) is
    smaller, to 4 points at least (xx-small past 40 rows took no account of the Axes: tall
    ones got tiny labels, short ones labels on top of each other)."""
    engine = ax.figure.get_layout_engine()
    if engine is not None:
        engine.execute(ax.figure)
    box = ax.get_position()
    inches = (box.height * ax.figure.get_figheight() if axis == "y"
              else box.width * ax.figure.get_figwidth())
    fitting = 0.85 * 72 * inches / max(rows, 1)  # points a row, less a little space
    return max(4.0, min(FontProperties(size=base).get_size_in_points(), fitting))


def panels(n, *, cols=4, width=3.2, height=2.6, **kwargs):
    """A grid of ``n`` panels (constrained layout) as a flat array; unused panels hidden."""
    cols = min(cols, n)
    rows = -(-n // cols)
    grid = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False,
                        layout="constrained", **kwargs)[1]
    flat = np.ravel(grid)
    for k in range(n, len(flat)):
        flat[k].set_visible(False)
        if k >= cols:  # the panel above a hidden one is the last of its column
            flat[k - cols].xaxis.set_tick_params(labelbottom=True)
    return grid


def _spread_apart(values, gap, low, high):
    """``values`` moved as little as needed so that neighbours are ``gap`` apart, kept inside
    [low, high] (half a gap in from either end, off the Axes' frame) when there is room (a
    forward pass up, a backward pass down)."""
    low, high = low + gap / 2, high - gap / 2
    order = np.argsort(values)
    placed = np.clip(np.asarray(values, dtype=float)[order], low, high)
    for k in range(1, len(placed)):
        placed[k] = max(placed[k], placed[k - 1] + gap)
    if len(placed) and placed[-1] > high:
        placed[-1] = high
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - gap)
    if len(placed) and (len(placed) - 1) * gap > high - low:
        # no room: over both ends alike, not all over the bottom one
        placed += (low + high - placed[0] - placed[-1]) / 2
    out = np.empty_like(placed)
    out[order] = placed
    return out


def _scaled(axis, values, inverse=False):
    """``values`` through the axis' scale (log10 on a log axis; unchanged on a linear one),
    where text is spaced evenly, or back with ``inverse``."""
    transform = axis.get_transform()
    transform = transform.inverted() if inverse else transform
    return transform.transform(np.reshape(np.asarray(values, dtype=float), (-1, 1))).ravel()


def _text_height(ax, fontsize):
    """The height of a line of text of ``fontsize`` points in the Axes' scaled y units (at
    the Axes' size after the figure's layout)."""
    engine = ax.figure.get_layout_engine()
    if engine is not None:
        engine.execute(ax.figure)
    height_pt = ax.get_position().height * ax.figure.get_figheight() * 72
    low, high = _scaled(ax.yaxis, ax.get_ylim())
    return 1.25 * fontsize * (high - low) / height_pt


def given_axes(ax, axes):
    """The panels' Axes, given as ``axes=`` or as ``ax=`` (ArviZ's name), not both."""
    if ax is not None and axes is not None:
        raise TypeError("give the Axes as ax= or as axes=, not both")
    return axes if ax is None else ax


def label_figure(flat, own, *, xlabel=None, ylabel=None, title=None):
    """Axis labels and a title of a grid of panels ``flat``: figure-wide on a figure the plot
    made (``own``); on Axes the user gave, the labels on those Axes and no title (the
    user's figure keeps its own title and its other panels), the y label in the first
    column only and the x label in the last row only, where the Axes say where they are."""
    figure = flat[0].figure
    if own:
        if xlabel:
            figure.supxlabel(xlabel)
        if ylabel:
            figure.supylabel(ylabel)
        if title:  # wrapped to the figure's width: one to three panels are narrow
            figure.suptitle(textwrap.fill(title, int(figure.get_figwidth() * 12)),
                            fontsize="medium")
        return
    for ax in flat:
        spec = ax.get_subplotspec()
        if xlabel and (spec is None or spec.is_last_row()):
            ax.set_xlabel(xlabel, fontsize="small")
        if ylabel and (spec is None or spec.is_first_col()):
            ax.set_ylabel(ylabel, fontsize="small")


def panel_axes(axes, n, what):
    """The flat Axes for ``n`` panels (``what``: "models", "algorithms"), refusing fewer."""
    flat = np.ravel(axes)
    if len(flat) < n:
        raise ValueError(f"{len(flat)} Axes for {n} {what}; give one Axes per panel (or choose "
                         f"fewer {what})")
    return flat


def label_points(ax, x, y, labels, *, fontsize=7, clear=None):
    """Direct labels in a column right of the points, in the points' vertical order and nudged
    apart so that none overlap, each joined to its point by a thin line (the x range widens
    by 40% to hold them); the font shrinks (down to 5 points) until the column fits the
    Axes' height, and where even 5 points do not fit, only points spread evenly over the
    vertical order are labelled (the first and last among them). ``clear``: (left, right) x
    range the column must stay right of (other points, error bars), when wider than the
    labelled points'. On log axes the spacing is even on the log scale. The x axis has no
    ticks over the column (set the Axes' locators before). Returns the number of points
    labelled."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    scaled_x = _scaled(ax.xaxis, x)
    left, right = np.nanmin(scaled_x), np.nanmax(scaled_x)
    if clear is not None:
        edges = _scaled(ax.xaxis, clear)
        left, right = min(left, edges[0]), max(right, edges[1])
    width = (right - left) or 1.0
    ax.set_xlim(*_scaled(ax.xaxis, [left - 0.05 * width, right + 0.45 * width], inverse=True))
    _ticks_up_to(ax.xaxis, _scaled(ax.xaxis, [right + 0.05 * width], inverse=True)[0])
    low, high = _scaled(ax.yaxis, ax.get_ylim())
    point = _text_height(ax, 1)  # a line of text is proportional to its font size
    if len(y) > 1:
        fontsize = max(5.0, min(fontsize, (high - low) / (len(y) * point)))
        fits = int((high - low) / (point * fontsize))
        if fits < len(y):
            keep = np.argsort(y, kind="stable")[evenly_spaced(len(y), fits)]
            x, y, labels = x[keep], y[keep], np.asarray(labels, dtype=object)[keep]
    ys = _scaled(ax.yaxis, _spread_apart(_scaled(ax.yaxis, y), point * fontsize, low, high),
                 inverse=True)
    column = _scaled(ax.xaxis, [right + 0.08 * width], inverse=True)[0]
    for xi, yi, yl, text in zip(x, y, ys, labels):
        ax.annotate(str(text), (xi, yi), xytext=(column, yl), fontsize=fontsize, va="center",
                    arrowprops={"arrowstyle": "-", "lw": 0.4, "color": "0.6",
                                "shrinkA": 0, "shrinkB": 2})
    return len(y)


class TicksUpTo(Locator):
    """The ticks of ``locator`` up to ``high``."""

    def __init__(self, locator, high):
        self.locator, self.high = locator, high

    def set_axis(self, axis):
        super().set_axis(axis)
        self.locator.set_axis(axis)

    def tick_values(self, vmin, vmax):
        ticks = np.asarray(self.locator.tick_values(vmin, vmax))
        return ticks[ticks <= self.high]

    def __call__(self):
        ticks = np.asarray(self.locator())
        return ticks[ticks <= self.high]


def _bounded(locator, high):
    """``locator`` with its ticks up to ``high``; one already bounded keeps the larger bound."""
    if isinstance(locator, TicksUpTo):
        return TicksUpTo(locator.locator, max(locator.high, high))
    return TicksUpTo(locator, high)


def _ticks_up_to(axis, high):
    """No major or minor ticks right of ``high`` on ``axis``: over a column of labels they
    mark no data (an area under a curve, at most 1, read 1.1). A bound already there (a
    second call, another panel on a shared axis) widens to the larger."""
    axis.set_major_locator(_bounded(axis.get_major_locator(), high))
    axis.set_minor_locator(_bounded(axis.get_minor_locator(), high))


def set_major_locator(axis, locator):
    """``axis.set_major_locator(locator)``, keeping the bound of :func:`label_points`' ticks
    where it has one."""
    old = axis.get_major_locator()
    axis.set_major_locator(_bounded(locator, old.high) if isinstance(old, TicksUpTo)
                           else locator)


def label_line_ends(ax, x, ends, labels, colours, *, fontsize=7):
    """Labels just right of the lines' ends (at ``x``), in the lines' colours, nudged apart;
    the x range widens to hold them (by 30%, more for long labels), with no ticks past ``x``."""
    left, right = ax.get_xlim()
    ax.set_xlim(left, right + 0.3 * (right - left))
    _ticks_up_to(ax.xaxis, x)
    low, high = _scaled(ax.yaxis, ax.get_ylim())
    ys = _scaled(ax.yaxis, _spread_apart(_scaled(ax.yaxis, ends), _text_height(ax, fontsize),
                                         low, high), inverse=True)
    texts = [ax.annotate(str(text), (x, yl), xytext=(9, 0), textcoords="offset points",
                         fontsize=fontsize, color=colour, va="center")
             for yl, text, colour in zip(ys, labels, colours)]
    _widen_for(ax, x, texts)


def _widen_for(ax, x, texts, margin=8):
    """Widen the x range so that ``texts``, placed at a fixed offset right of ``x``, end
    ``margin`` points inside the Axes (long ones ran into its edge: "(b = -6.49"); labels
    wider than most of the Axes leave its left fifth to the data."""
    renderer = getattr(ax.figure.canvas, "get_renderer", lambda: None)()
    if renderer is None or not texts:  # a backend that cannot measure text
        return
    engine = ax.figure.get_layout_engine()
    if engine is not None:  # the Axes' size in its figure's layout
        engine.execute(ax.figure)
    box = ax.get_window_extent(renderer)
    beyond = max(t.get_window_extent(renderer).x1 for t in texts) + margin * ax.figure.dpi / 72
    if beyond <= box.x1:
        return
    left, right = _scaled(ax.xaxis, ax.get_xlim())
    at = box.x0 + box.width * (_scaled(ax.xaxis, [x])[0] - left) / (right - left)
    room = max(box.width - (beyond - at), 0.2 * box.width)  # pixels left for the data
    new_right = left + (_scaled(ax.xaxis, [x])[0] - left) * box.width / room
    ax.set_xlim(*_scaled(ax.xaxis, [left, new_right], inverse=True))


#: colours of highlighted series (tab10 without its grey); the rest are drawn grey
HIGHLIGHT = plt.cm.tab10.colors[:7] + plt.cm.tab10.colors[8:]


def ordered_colours(n):
    """``n`` colours for ordered classes (difficulty bins, performance levels), first to last:
    viridis from 0 to 0.8, short of its pale yellow end, which vanishes on white."""
    return plt.cm.viridis(np.linspace(0, 0.8, n))
