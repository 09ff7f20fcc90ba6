"""The "See Also" links of the API reference, between related public names.

``docs/conf.py`` adds these to the docstrings as numpydoc "See Also" sections
when the pages are built (after any entries the docstring has itself, which
are kept and not repeated).  Keys and targets are the names the API reference
documents them under (``sftwave.icwt``, not ``sftwave.inverse.icwt``).
``tests/suites/test_api_docs.py`` checks that every public function and class
gets a "See Also" section, from its docstring or from here, and that every
name here is a documented public name.
"""

from __future__ import annotations

_GAUSSIAN_1D = "sftwave.gaussian_filter1d"
_GAUSSIAN = "sftwave.gaussian_filter"
_LAPLACE = "sftwave.gaussian_laplace"
_GRADIENT = "sftwave.gaussian_gradient_magnitude"

#: {documented name: [(related name, why you would look at it), ...]}
SEE_ALSO: dict[str, list[tuple[str, str]]] = {
    # -- smoothing ------------------------------------------------------------------------
    _GAUSSIAN_1D: [
        (_GAUSSIAN, "Along several axes at once."),
        ("sftwave.stream.GaussianFilter1D", "The same filter on a signal as it arrives."),
        ("sftwave.dask.gaussian_filter1d", "The lazy filter of dask arrays."),
        ("sftwave.xarray.gaussian_filter1d", "The filter of a DataArray, by dimension name."),
    ],
    _GAUSSIAN: [
        (_GAUSSIAN_1D, "Along one axis."),
        (_LAPLACE, "The sum of the second derivatives."),
        (_GRADIENT, "The magnitude of the gradient."),
        ("sftwave.dask.gaussian_filter", "The lazy filter of dask arrays."),
        ("sftwave.xarray.gaussian_filter", "The filter of a DataArray, by dimension name."),
    ],
    _LAPLACE: [
        (_GAUSSIAN, "Smoothing and derivatives of any order per axis."),
        (_GRADIENT, "The magnitude of the gradient."),
    ],
    _GRADIENT: [
        (_GAUSSIAN, "Smoothing and derivatives of any order per axis."),
        (_LAPLACE, "The sum of the second derivatives."),
    ],
    # -- scalograms -----------------------------------------------------------------------
    "sftwave.cwt": [
        ("sftwave.icwt", "The signal back from its coefficients."),
        ("sftwave.plot.scalogram", "Draw the result."),
        ("sftwave.mne.tfr_array_morlet", "MNE's function, with MNE's conventions."),
        ("sftwave.stream.CWT", "The same transform on a signal as it arrives."),
        ("sftwave.dask.cwt", "The lazy transform of dask arrays."),
        ("sftwave.xarray.cwt", "The transform of a DataArray, by dimension name."),
        ("sftwave.analysis.frequencies_for_periods", "Frequencies for Fourier periods."),
    ],
    "sftwave.morlet_transform": [
        ("sftwave.cwt", "The same transform at many frequencies."),
    ],
    "sftwave.frequency_to_scale": [
        ("sftwave.scale_to_frequency", "The inverse conversion."),
        ("sftwave.analysis.fourier_period", "Torrence & Compo's Fourier period of a row."),
    ],
    "sftwave.scale_to_frequency": [
        ("sftwave.frequency_to_scale", "The inverse conversion."),
    ],
    # -- inverse --------------------------------------------------------------------------
    "sftwave.icwt": [
        ("sftwave.cwt", "The forward transform."),
        ("sftwave.inverse.reconstruction_weights", "The weights of each row in the sum."),
        ("sftwave.analysis.reconstruction_factor", "Torrence & Compo's C_delta."),
    ],
    "sftwave.inverse.reconstruction_weights": [
        ("sftwave.icwt", "The reconstruction that uses them."),
    ],
    # -- Torrence & Compo -----------------------------------------------------------------
    "sftwave.analysis.fourier_factor": [
        ("sftwave.analysis.fourier_period", "The Fourier period of each frequency."),
    ],
    "sftwave.analysis.fourier_period": [
        ("sftwave.analysis.frequencies_for_periods", "The inverse conversion."),
        ("sftwave.analysis.fourier_factor", "The ratio of Fourier period to scale."),
    ],
    "sftwave.analysis.frequencies_for_periods": [
        ("sftwave.analysis.fourier_period", "The inverse conversion."),
        ("sftwave.cwt", "The transform at those frequencies."),
    ],
    "sftwave.analysis.normalisation_factor": [
        ("sftwave.analysis.reconstruction_factor", "Torrence & Compo's C_delta."),
    ],
    "sftwave.analysis.reconstruction_factor": [
        ("sftwave.icwt", "The reconstruction."),
        ("sftwave.analysis.scale_average", "The scale-averaged power, which uses it."),
    ],
    "sftwave.analysis.cone_of_influence": [
        ("sftwave.analysis.coi_mask", "The same as a mask of the coefficients."),
    ],
    "sftwave.analysis.coi_mask": [
        ("sftwave.analysis.cone_of_influence", "The cone as a curve of times."),
        ("sftwave.analysis.global_spectrum", "A time average that leaves the cone out."),
    ],
    "sftwave.analysis.global_spectrum": [
        ("sftwave.analysis.scale_average", "The average over scales instead."),
        ("sftwave.analysis.significance", "Its significance level (``test='global'``)."),
    ],
    "sftwave.analysis.scale_average": [
        ("sftwave.analysis.global_spectrum", "The average over time instead."),
        ("sftwave.analysis.significance", "Its significance level (``test='scale'``)."),
    ],
    "sftwave.analysis.ar1": [
        ("sftwave.analysis.red_noise_spectrum", "The red-noise spectrum of the fitted alpha."),
        ("sftwave.analysis.significance", "The significance levels against it."),
    ],
    "sftwave.analysis.red_noise_spectrum": [
        ("sftwave.analysis.ar1", "Fit alpha to a series."),
        ("sftwave.analysis.significance", "The significance levels against it."),
    ],
    "sftwave.analysis.significance": [
        ("sftwave.analysis.ar1", "The lag-1 autocorrelation it fits."),
        ("sftwave.plot.scalogram", "Draw the levels as contours."),
    ],
    # -- MNE ------------------------------------------------------------------------------
    "sftwave.mne.tfr_array_morlet": [
        ("sftwave.cwt", "The transform with sftwave's conventions."),
        ("sftwave.datasets.eeg_epochs", "Synthetic EEG epochs to try it on."),
    ],
    # -- streams --------------------------------------------------------------------------
    "sftwave.stream.GaussianFilter1D": [
        (_GAUSSIAN_1D, "The same filter on a whole signal."),
        ("sftwave.stream.CWT", "The Morlet transform as a stream."),
        ("sftwave.stream.load", "Resume a saved stream."),
    ],
    "sftwave.stream.CWT": [
        ("sftwave.cwt", "The same transform on a whole signal."),
        ("sftwave.stream.GaussianFilter1D", "Gaussian smoothing as a stream."),
        ("sftwave.stream.load", "Resume a saved stream."),
    ],
    "sftwave.stream.load": [
        ("sftwave.stream.GaussianFilter1D", "A smoothing stream."),
        ("sftwave.stream.CWT", "A Morlet transform stream."),
    ],
    # -- dask and xarray ------------------------------------------------------------------
    "sftwave.dask.gaussian_filter1d": [
        (_GAUSSIAN_1D, "The same filter in memory."),
        ("sftwave.dask.gaussian_filter", "Along several axes."),
    ],
    "sftwave.dask.gaussian_filter": [
        (_GAUSSIAN, "The same filter in memory."),
        ("sftwave.dask.gaussian_filter1d", "Along one axis."),
    ],
    "sftwave.dask.cwt": [
        ("sftwave.cwt", "The same transform in memory."),
        ("sftwave.xarray.cwt", "Dask-backed DataArrays, by dimension name."),
    ],
    "sftwave.xarray.cwt": [
        ("sftwave.xarray.SftwaveAccessor", "The same as a method, ``da.sftwave.cwt``."),
    ],
    "sftwave.xarray.gaussian_filter": [
        ("sftwave.xarray.SftwaveAccessor", "The same as a method."),
    ],
    "sftwave.xarray.gaussian_filter1d": [
        ("sftwave.xarray.SftwaveAccessor", "The same as a method."),
    ],
    "sftwave.xarray.SftwaveAccessor": [
        ("sftwave.xarray.cwt", "The Morlet transform of a DataArray."),
        ("sftwave.xarray.gaussian_filter", "Gaussian smoothing of a DataArray."),
        ("sftwave.xarray.gaussian_filter1d", "Along one dimension."),
    ],
    # -- plotting -------------------------------------------------------------------------
    "sftwave.plot.scalogram": [
        ("sftwave.cwt", "The coefficients it draws."),
        ("sftwave.analysis.significance", "The levels of its contours."),
        ("sftwave.analysis.coi_mask", "The cone of influence it hatches."),
        ("sftwave.plot.reduce_time", "How a long scalogram is reduced along time."),
    ],
    "sftwave.plot.ScalogramFigure": [
        ("sftwave.plot.scalogram", "The function that returns it."),
    ],
    "sftwave.plot.reduce_time": [
        ("sftwave.plot.time_block_edges", "The blocks it reduces."),
        ("sftwave.plot.scalogram", "The figure that uses it."),
    ],
    "sftwave.plot.TimeBlocks": [
        ("sftwave.plot.reduce_time", "The function that returns it."),
    ],
    "sftwave.plot.time_block_edges": [
        ("sftwave.plot.reduce_time", "The reduction over these blocks."),
    ],
    # -- example data ---------------------------------------------------------------------
    "sftwave.datasets.nino3": [
        ("sftwave.datasets.Nino3", "What it returns."),
        ("sftwave.analysis.significance", "Torrence & Compo's analysis of it."),
    ],
    "sftwave.datasets.eeg_epochs": [
        ("sftwave.datasets.EEGEpochs", "What it returns."),
        ("sftwave.mne.tfr_array_morlet", "Their time-frequency power."),
    ],
    "sftwave.datasets.ecg": [
        ("sftwave.datasets.ECG", "What it returns."),
        ("sftwave.cwt", "Its scalogram."),
    ],
    "sftwave.datasets.Nino3": [("sftwave.datasets.nino3", "The function that returns it.")],
    "sftwave.datasets.EEGEpochs": [("sftwave.datasets.eeg_epochs", "The function that returns it.")],
    "sftwave.datasets.ECG": [("sftwave.datasets.ecg", "The function that returns it.")],
    # -- threads --------------------------------------------------------------------------
    "sftwave.get_workers": [("sftwave.set_workers", "Set the count for the calling thread.")],
    "sftwave.set_workers": [("sftwave.get_workers", "The count in effect.")],
    # -- plans and engines ----------------------------------------------------------------
    "sftwave.apply_plan": [
        ("sftwave.plans.select_gaussian", "A Gaussian plan."),
        ("sftwave.plans.select_morlet", "A Morlet plan."),
        ("sftwave.engines.get", "The engine that runs it."),
    ],
    "sftwave.plans.select_gaussian": [
        ("sftwave.plans.select_morlet", "The same for a Morlet wavelet."),
        ("sftwave.apply_plan", "Run the plan."),
    ],
    "sftwave.plans.select_morlet": [
        ("sftwave.plans.select_gaussian", "The same for a Gaussian."),
        ("sftwave.apply_plan", "Run the plan."),
    ],
    "sftwave.plans.SFTPlan": [
        ("sftwave.plans.FIRPlan", "A truncated kernel instead."),
        ("sftwave.plans.WidePlan", "A Gaussian wider than the signal."),
        ("sftwave.apply_plan", "Run a plan."),
    ],
    "sftwave.plans.FIRPlan": [
        ("sftwave.plans.SFTPlan", "The SFT bank instead."),
        ("sftwave.apply_plan", "Run a plan."),
    ],
    "sftwave.plans.WidePlan": [
        ("sftwave.plans.select_gaussian", "The selector that returns it."),
        ("sftwave.apply_plan", "Run a plan."),
    ],
    "sftwave.engines.get": [
        ("sftwave.engines.names", "The registered engines."),
        ("sftwave.engines.resolve_engine", "The engine an input would get."),
    ],
    "sftwave.engines.names": [
        ("sftwave.engines.available", "Whether an engine's packages are installed."),
        ("sftwave.engines.register", "Add an engine."),
    ],
    "sftwave.engines.available": [("sftwave.engines.names", "The registered engines.")],
    "sftwave.engines.resolve_engine": [("sftwave.engines.get", "The engine itself.")],
    "sftwave.engines.register": [
        ("sftwave.engines.unregister", "Remove it again."),
        ("sftwave.engines.Capabilities", "What it declares it can do."),
    ],
    "sftwave.engines.unregister": [("sftwave.engines.register", "Add an engine.")],
    "sftwave.engines.check_request": [
        ("sftwave.engines.Capabilities", "What it checks against."),
    ],
    "sftwave.engines.Capabilities": [
        ("sftwave.engines.register", "Register an engine with them."),
        ("sftwave.engines.check_request", "Check a call against them."),
    ],
}
