"""Rendering planned pages through the Jinja2 templates."""
