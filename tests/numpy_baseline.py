"""Print the numpy dispatch targets above numpy's baseline that this CPU runs, for ``NPY_DISABLE_CPU_FEATURES``.

``make test`` runs the chapters' stored-output check with numpy held to its baseline: the stored outputs
are written by ``make notebooks`` with every target the machine has (on a CPU with AVX-512, numpy's ``exp``
and ``log`` differ in the last bit from its baseline's on several per cent of values), so the check meets
what another CPU would compute. Prints nothing on a CPU with no target above the baseline.
"""

from __future__ import annotations

from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

if __name__ == "__main__":
    print(" ".join(target for target in __cpu_dispatch__ if __cpu_features__.get(target)))
