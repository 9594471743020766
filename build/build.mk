# build stage: see docs/architecture.md
