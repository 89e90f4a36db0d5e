"""Generate the Wuhan 红中赖子杠 sample logs (``sample_logs/wuhan/``).

* ``clean/``: every worked example of wuhan.md §12 and a room per option value that
  changes the money, with the text's names, points and transfers typed in
  (:mod:`.examples`);
* ``faulty/``: one room per near miss (:data:`.examples.NEAR_MISSES`) and one per fault
  class planted in a simulated room (:mod:`.faults`), each with the one finding it must give.

Beside every log, ``NAME.expected.json`` states the findings the audit must report
(``[{game, code, seq}]``) and each game's final scores (logged, and the audit's
corrected ledger).
"""

from __future__ import annotations

from ..sample_files import plant_first, write_family_samples

from .examples import EXAMPLES, NEAR_MISSES, OPTION_ROOMS
from .faults import FAULTS


def plant(name: str):
    """The first simulated Wuhan room (no logged wall) the fault class applies to."""
    return plant_first(name, FAULTS[name], "wuhan-hzlzg", seed=40, max_hands=6,
                       options={})


def main() -> None:
    write_family_samples("wuhan", "Wuhan 红中赖子杠", "wuhan.md §12", "wh", {**EXAMPLES, **OPTION_ROOMS}, NEAR_MISSES,
                         FAULTS, plant)


if __name__ == "__main__":
    main()
