// The privacy module's public entry (docs/architecture.md#boundaries): nothing is offered to other
// modules; the slice only composes theirs (ADR 060).
export {};
