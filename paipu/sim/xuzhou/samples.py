"""Generate the Xuzhou 徐州麻将 sample logs (``sample_logs/xuzhou/``).

* ``clean/``: every worked example of xuzhou.md §11 and a room per option value that
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
    """The first simulated Xuzhou room (no logged wall) the fault class applies to."""
    return plant_first(name, FAULTS[name], "xuzhou", seed=38, max_hands=6,
                       options={"xiazui": "max_two"} if "bet" in name and "without" not in name else {})


def main() -> None:
    write_family_samples("xuzhou", "Xuzhou 徐州麻将", "xuzhou.md §11", "xz", {**EXAMPLES, **OPTION_ROOMS}, NEAR_MISSES,
                         FAULTS, plant)


if __name__ == "__main__":
    main()
