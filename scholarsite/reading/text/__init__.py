"""Reading Markdown and text: Markdown papers (front matter and abstract), Python-Markdown
set up for the site, its fast path for plain prose, math and code, and the one cleaner
of outside text."""
