"""Fitting with the diagnostics printed (``--strict`` refuses a failed fit), and writing
the fit (``posterior.nc``) and its plots."""

from __future__ import annotations

import sys

from .options import as_flags


class StrictError(Exception):
    """A fit failed its convergence diagnostics under --strict."""


def fit(model, args, **kwargs):
    """Fit, print the diagnostics and any failed check; under --strict a failed check raises
    StrictError (before the caller writes anything)."""
    import warnings

    from ..exceptions import ConvergenceWarning
    from ..inference import fit as fit_model
    from ..inference.diagnostics import RHAT_MAX, as_compared
    from ..inference.fit import IGNORED

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        nuts = kwargs.get("method", "nuts") == "nuts"  # (the command says what others ignore)
        given = getattr(args, "log_likelihood", None)
        kwargs.setdefault("log_likelihood", "auto" if given is None else given)
        # the command runs its own checks; irteval.add_posterior_predictive adds the group
        kwargs.setdefault("posterior_predictive", False)
        settings = {"draws": args.draws, "tune": args.tune, "chains": args.chains,
                    "sampler": args.sampler, "target_accept": args.target_accept}
        ignored = IGNORED.get(kwargs.get("method", "nuts"), ())  # not passed: the command
        idata = fit_model(model, random_seed=args.seed, **kwargs,  # says which flags it ignores
                          **{k: v for k, v in settings.items() if k not in ignored})
    failed = [as_flags(str(w.message)) for w in caught
              if issubclass(w.category, ConvergenceWarning)]
    for w in caught:  # the others as they would have been shown
        if not issubclass(w.category, ConvergenceWarning):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if "max_rhat" in idata.attrs:
        attrs = idata.attrs  # ESS as whole draws; R-hat 1.0102, not 1.010 (beside 1.01)
        print(f"diagnostics: divergences {attrs['divergences']:.0f}, max_rhat "
              f"{as_compared(attrs['max_rhat'], RHAT_MAX)}, min_ess_bulk "
              f"{attrs['min_ess_bulk']:.0f}, min_ess_tail {attrs['min_ess_tail']:.0f}")
    elif not nuts:
        method = kwargs["method"]
        print(f"diagnostics: --method {method} gives "
              + ("one point" if method == "map" else "an approximation, not a sampler's draws")
              + ": no divergences, R-hat or ESS (--method nuts has them); only whether the "
              + ("ADVI loss" if method == "advi" else "optimiser") + " converged is checked")
    if failed and args.strict:  # the error says it: not as a warning too
        raise StrictError(f"--strict: {'; '.join(failed)}; the outputs of this fit were not "
                          "written")
    for message in failed:
        print(f"irteval: warning: {message}", file=sys.stderr)
    return idata


def save(idata, writer, plots):
    """Write the fit to ``posterior.nc`` — posterior draws in float32, or packed to 16 bits
    where that loses under 1% of the variable's smallest posterior sd (:func:`_packed`;
    ``arviz.from_netcdf`` decodes them), the other groups in float32, all compressed — and
    each plot {file name: function(ax)}, through the report's
    :class:`~irteval.cli.outputs.Writer`."""
    import numpy as np
    import xarray as xr

    path = writer.path("posterior.nc")
    xr.Dataset(attrs=dict(idata.attrs)).to_netcdf(path, mode="w", engine="h5netcdf")
    for group in idata.groups():
        ds = idata[group]
        floats = [k for k, v in ds.data_vars.items() if v.dtype.kind == "f"]
        if group != "posterior":
            ds = ds.assign({k: ds[k].astype("float32") for k in floats})
        encoding = {k: _packed(ds[k]) if group == "posterior" and k in floats else {"zlib": True}
                    for k, v in ds.data_vars.items() if v.dtype.kind in "fiub"}
        with np.errstate(over="ignore"):  # beyond float32 (a Laplace fit gone wide, warned of
            # when it was fitted) is stored as inf
            ds.to_netcdf(path, mode="a", group=group, engine="h5netcdf", encoding=encoding)
    for name, plot in plots.items():
        save_plot(writer.path(name), plot)


def _packed(values):
    """netCDF encoding of posterior draws: int16 with a scale and offset spanning their range
    where its step, range / 65000, is at most 1% of the smallest posterior spread of an
    entry (interquartile range / 1.349, the sd of a normal: an error no summary sees);
    float32 elsewhere: heavy-tailed draws (the AIRT's beta = -tau / gamma spans 10^5 where
    most entries' spread is ~1) and single draws."""
    import numpy as np

    lo, hi = float(values.min()), float(values.max())
    step = (hi - lo) / 65000
    draws = values.transpose("chain", "draw", ...).values
    draws = draws.reshape(-1, *draws.shape[2:])
    present = ~np.isnan(draws).all(axis=0)  # entries a model lacks (a level above its top)
    q1, q3 = np.quantile(draws[:, present], [0.25, 0.75], axis=0)
    if not (present.any() and 0 < step <= 0.01 * float(np.min(q3 - q1)) / 1.349):
        return {"dtype": "float32", "zlib": True}
    return {"dtype": "int16", "scale_factor": step, "add_offset": (hi + lo) / 2,
            "_FillValue": -32768, "zlib": True}


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_plot(path, plot):
    """A plot ``plot(ax=...)`` saved to ``path``, in the figure it makes for itself (7 x 4.5
    inches, taller for a table of many rows: a leaderboard of 80 players)."""
    plt = pyplot()
    with plt.rc_context({"figure.figsize": (7, 4.5)}):
        plot(ax=None)
    fig = plt.gcf()
    if fig.get_layout_engine() is None:
        fig.tight_layout()
    save_figure(path, fig)


def save_figure(path, fig, dpi=110):
    fig.savefig(path, dpi=dpi, bbox_inches="tight")  # legends placed outside the Axes too
    pyplot().close(fig)
