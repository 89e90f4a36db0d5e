"""The judge: audit replayed games against their ruleset's rule family.

The public entry points are :func:`audit_game` (one game), :func:`audit_paths`
(files and folders, serial or parallel, in input order) and :func:`explain_game`;
results are :class:`GameAudit` records holding :class:`Finding` data.
"""

from .audit import audit_game, explain_game
from .ledger import GameAudit
from .run import audit_paths
from .findings import Finding

__all__ = ["Finding", "GameAudit", "audit_game", "audit_paths", "explain_game"]
