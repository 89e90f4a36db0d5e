"""The simulator (legal bots playing whole games) and the fault injector that plants one
labelled fault in a clean log.  Both call the rule families in :mod:`audits.rules`."""
