"""The audit's checks, grouped as the finding catalogue is: one module per group
(``stream``, ``table``, ``claims``, ``wins``, ``scoring``, ``billing``), each handler
taking the shared :class:`~audits.context.AuditContext` and one event."""
