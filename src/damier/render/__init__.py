"""Drawing boards: text for terminals (:mod:`.text`), SVG pictures (:mod:`.svg`), and
what every drawing needs from a geometry (:mod:`.shapes`)."""
