# report stage: see docs/architecture.md
