# boot stage: see docs/architecture.md
