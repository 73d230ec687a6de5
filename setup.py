"""The package list, found rather than written out, so that a new package (an agent's) needs no line
anywhere; everything else about the build is in pyproject.toml. The checkout also holds tests,
benchmarks and docs, which are not installed; the pages and the samples live at its top level and are
mapped into the packages there (tool.setuptools.package-dir)."""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["compaction", "compaction.*", "dashboard", "dashboard.*"]),
                "dashboard.app_pages", "compaction.samples"])
