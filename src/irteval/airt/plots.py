"""Matplotlib plots of the AIRT analysis (paper 3); each takes ``ax=``/``axes=`` and returns it."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .. import _intervals
from .._validation import check_idata
from ..models.continuous_irt import mean_z
from ..plotting import ensure_axes, panels
from .goodness import _curves, effectiveness
from .latent_trait import LatentTrait
from .metrics import FAMILIES


def plot_crm_heatmap(idata, algorithms=None, *, axes=None, theta_range=(-3, 3), n=121):
    """The continuous response model's density f(z | theta) = Normal(z; gamma (theta - beta),
    |gamma / alpha|) per algorithm at the posterior means (the paper's Fig. 10): a
    discriminating algorithm is a narrow rising band, an anomalous one falls, a
    non-discriminating one is flat and wide. Returns the array of Axes."""
    check_idata(idata, FAMILIES, "plot_crm_heatmap")
    post = idata.posterior
    names = list(post["item"].values) if algorithms is None else list(algorithms)
    unknown = [a for a in names if a not in post["item"].values]
    if unknown:
        raise ValueError(f"unknown algorithms {unknown[:5]}")
    tau, lam, s = (post[v].mean(("chain", "draw")).sel(item=names).values
                   for v in ("tau", "lam", "s"))
    z_obs = idata.observed_data["z"].values
    theta = np.linspace(*theta_range, n)
    z = np.linspace(z_obs.min() - 1, z_obs.max() + 1, n)
    if axes is None:
        axes = panels(len(names), width=3, sharex=True, sharey=True)
    flat = np.ravel(axes)
    means = mean_z(tau, lam, theta)  # (theta, algorithm)
    for ax, name, mean, sd in zip(flat, names, means.T, s):
        mean = mean[None, :]
        density = np.exp(-0.5 * ((z[:, None] - mean) / sd) ** 2) / (sd * np.sqrt(2 * np.pi))
        ax.imshow(density, origin="lower", aspect="auto", cmap="plasma",
                  extent=(theta[0], theta[-1], z[0], z[-1]))
        ax.set_title(str(name), fontsize="small")
    flat[0].set_ylabel("z (logit performance)")
    flat[0].set_xlabel("theta (dataset easiness)")
    return axes


def plot_latent_trait(lt: LatentTrait, *, ax=None, algorithms=None):
    """Smoothed performance of each algorithm over the dataset-difficulty spectrum (the
    paper's Fig. 14); portfolio members (LTO > 0) drawn thick."""
    ax = ensure_axes(ax)
    names = list(lt.smoothed.columns) if algorithms is None else list(algorithms)
    colours = plt.cm.tab20(np.linspace(0, 1, max(len(names), 2)))
    for name, colour in zip(names, colours):
        lto = lt.occupancy.loc[name, "lto"]
        ax.plot(lt.smoothed.index, lt.smoothed[name], color=colour, lw=2.5 if lto > 0 else 1,
                alpha=1 if lto > 0 else 0.6,
                label=f"{name} (LTO {lto:.2f})" if lto > 0 else str(name))
    ax.plot(lt.spectrum["mean"], np.full(len(lt.spectrum), ax.get_ylim()[0]), "|",
            color="k", alpha=0.4)
    ax.set(xlabel="dataset difficulty (-theta)", ylabel="performance",
           title="performance over the difficulty spectrum")
    ax.legend(fontsize="xx-small", ncol=2)
    return ax


def plot_strengths(lt: LatentTrait, *, ax=None):
    """Where on the difficulty spectrum each algorithm is strong (green: within epsilon of the
    best) or weak (red: within epsilon of the worst) — the paper's Fig. 15."""
    ax = ensure_axes(ax)
    names = list(lt.smoothed.columns)
    grid = lt.smoothed.index.to_numpy()
    code = lt.strengths.to_numpy().T * 1.0 - lt.weaknesses.to_numpy().T * 1.0
    step = grid[1] - grid[0]
    ax.imshow(code, aspect="auto", cmap="RdYlGn", vmin=-1, vmax=1, interpolation="nearest",
              extent=(grid[0] - step / 2, grid[-1] + step / 2, len(names) - 0.5, -0.5))
    ax.set_yticks(np.arange(len(names)), names, fontsize="x-small")
    ax.set(xlabel="dataset difficulty (-theta)",
           title=f"strengths (green) and weaknesses (red), epsilon = {lt.epsilon:g}")
    return ax


def plot_goodness(curves, *, ax=None, max_draws=200, random_seed=0):
    """ECDF of the absolute scaled residuals per algorithm (the paper's Fig. 16), posterior
    mean curves; the area under each is its AUCDF. ``curves``: :func:`airt_curves` or a fit."""
    curves = _curves(curves, max_draws, random_seed)
    ax = ensure_axes(ax)
    mean = curves["cdf"].mean("sample")
    for name in curves["item"].values:
        ax.plot(curves["threshold"], mean.sel(item=name), label=str(name))
    ax.set(xlabel="absolute scaled residual", ylabel="share of datasets within",
           title="model goodness curves")
    ax.legend(fontsize="xx-small", ncol=2)
    return ax


def plot_effectiveness(curves, *, ax=None, kind="actual", max_draws=200, random_seed=0):
    """Effectiveness curves (the paper's Fig. 18): share of datasets on which an algorithm's
    ``kind`` ("actual" or "predicted") scaled performance is >= 1 - tolerance.
    ``curves``: :func:`airt_curves` or a fit."""
    if kind not in ("actual", "predicted"):
        raise ValueError(f"kind must be 'actual' or 'predicted', got {kind!r}")
    curves = _curves(curves, max_draws, random_seed)
    values = curves["aec"] if kind == "actual" else curves["pec"].mean("sample")
    ax = ensure_axes(ax)
    for name in curves["item"].values:
        ax.plot(curves["threshold"], values.sel(item=name), label=str(name))
    ax.set(xlabel="effectiveness tolerance", ylabel=f"{kind} effectiveness",
           title=f"{kind} effectiveness curves")
    ax.legend(fontsize="xx-small", ncol=2)
    return ax


def plot_auaec_aupec(table, *, ax=None, ci_prob=None, ci_kind=None, max_draws=200,
                     random_seed=0, hdi_prob=None):
    """AUAEC (actual) against AUPEC (predicted) per algorithm with the posterior interval of
    AUPEC; on the diagonal the model predicts the algorithm's effectiveness exactly.
    ``table``: an :func:`effectiveness` table, or :func:`airt_curves`, or a fit."""
    if isinstance(table, pd.DataFrame):
        _intervals.check_matches(table, ci_prob, ci_kind)
    else:
        table = effectiveness(table, ci_prob=ci_prob, ci_kind=ci_kind, max_draws=max_draws,
                              random_seed=random_seed, hdi_prob=hdi_prob)
    ax = ensure_axes(ax)
    # a mean can lie outside an equal-tailed interval of a lumpy distribution: clip at 0
    yerr = np.maximum(0, [table["aupec"] - table["aupec_lower"],
                          table["aupec_upper"] - table["aupec"]])
    ax.errorbar(table["auaec"], table["aupec"], yerr=yerr, fmt="o", ms=4, capsize=2)
    for name, row in table.iterrows():
        ax.annotate(str(name), (row["auaec"], row["aupec"]), fontsize="xx-small",
                    xytext=(3, 3), textcoords="offset points")
    ax.plot([0, 1], [0, 1], ":", color="grey")
    ax.set(xlim=(0, 1), ylim=(0, 1), xlabel="AUAEC (actual)", ylabel="AUPEC (predicted)",
           title="effectiveness: actual vs predicted")
    return ax
