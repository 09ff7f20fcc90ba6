"""Route calls of scipy, scikit-image, MNE, mne-connectivity and pycwt to sftwave, unedited."""
