"""Reading the settings: YAML with lines and typed fields, site.yaml (languages, theme,
colours, redirects, what is published) and the venue tables."""
