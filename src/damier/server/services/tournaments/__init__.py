"""Tournaments (issue 32): round robin, Swiss and arena. Pure: their pairing
(:mod:`.pairing`) and their standings and tie-breaks (:mod:`.standings`). On the rows:
:mod:`.records` reads them, :mod:`.progress` moves a tournament on, :mod:`.views` shows it,
and :mod:`.service` is what the routes call."""
