"""Settings of the whole suite, for every test folder and for the chapters' nbval run (``pytest --nbval chapters``).

- One Hypothesis profile, in and out of CI: no deadline (a loaded machine is slow, not wrong), the same examples
  on every run (``derandomize``: a failure is found again by the next run, and no run fails by luck), no example
  database written into the tree. A test asks for more or fewer examples than :data:`EXAMPLES` only where its
  own cost or its boundaries need it, with ``@settings(max_examples=...)``.
- :mod:`notebook_check` (``tests/``): nbval's comparison of the chapters' stored outputs, tolerant of another
  CPU's last bit, and the check of the prose's stored numbers.
"""

from hypothesis import settings

EXAMPLES = 200

settings.register_profile("irmeans", deadline=None, derandomize=True, database=None, max_examples=EXAMPLES)
settings.load_profile("irmeans")

pytest_plugins = ["notebook_check"]
