"""Output: writing the site safely, the build cache, and the forked workers that make
a large build fast."""
