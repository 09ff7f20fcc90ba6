"""sftwave's asv suite: the library's main paths at modest sizes, tracked across commits.

Each module holds asv classes (``setup``, then ``time_*``, ``peakmem_*``,
``track_*`` or ``timeraw_*`` methods).  Every ``setup`` makes one untimed call
of what it times, so numba's compilation and plan design are never inside a
timed call; the first-call costs are timed on their own, in fresh processes
(:mod:`.imports`, :mod:`.plans`).  See ``benchmarks/README.md``.
"""
