"""Drawing boards: text for terminals (SVG for the platform comes with it)."""
