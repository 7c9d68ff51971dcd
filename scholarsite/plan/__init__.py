"""Planning: which pages the site has, each with its template and its context."""
