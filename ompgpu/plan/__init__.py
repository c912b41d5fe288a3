"""Per-kernel decisions between analysis and code generation (execution mode, runtime elision)."""
