"""Tournaments (issue 32): round robin and Swiss, their pairing (:mod:`.pairing`), their
standings and tie-breaks (:mod:`.standings`) and the server's service (:mod:`.service`)."""
