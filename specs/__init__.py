"""The bundled specs, one YAML file per variant (shipped as package data)."""
